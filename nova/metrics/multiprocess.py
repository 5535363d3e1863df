"""prometheus_client's multiprocess mode for nova-api: every API
worker (uWSGI's or gunicorn's) writes its values to files in a directory
of nova-api's, and nova-api serves their sum.

prometheus_client chooses where values live when it is first imported, so
enable() runs in the master before anything imports it; the workers
inherit the setting when they fork.
"""
import atexit
import os
import shutil
import sys
import tempfile

ENVIRONMENT = 'PROMETHEUS_MULTIPROC_DIR'


def enable():
    """A fresh, empty directory for this master's workers (values of an
    earlier run must not be summed in), removed when the master exits."""
    if 'prometheus_client' in sys.modules:
        raise RuntimeError('prometheus_client was imported before its multiprocess '
                           'directory was set')
    directory = tempfile.mkdtemp(prefix='nova-api-metrics-')
    os.environ[ENVIRONMENT] = directory
    master = os.getpid()

    def remove():
        if os.getpid() == master:     # forked workers run atexit handlers too
            shutil.rmtree(directory, ignore_errors=True)

    atexit.register(remove)
    return directory


def registry():
    """A registry that reads every process's files at each scrape."""
    from prometheus_client import CollectorRegistry
    from prometheus_client import multiprocess
    collected = CollectorRegistry()
    multiprocess.MultiProcessCollector(collected)
    return collected
