"""Venvs of their own for the OpenStack services the functional tests run
against (Keystone, Masakari): their dependencies pin versions ours need not
share, so each lives in ``.venv-<name>`` at the top of the clone, made once
and reused by every test class and every later run.

Standard library only, so that .ci/run can start it with the system
``python3`` while the test venv installs::

    python3 nova/tests/functional/service_venvs.py keystone masakari

One installer at a time per venv (a lock file beside it): a test that
finds an install under way waits for it instead of starting another.
"""
import fcntl
import os
import shutil
import subprocess
import sys
import venv

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
PACKAGES = {
    'keystone': ['keystone==30.0.0', 'gunicorn'],
    'masakari': ['masakari==22.0.0'],
}


def path(name):
    return os.path.join(REPO, '.venv-' + name)


def ensure(name):
    """The venv's directory, installed first if it is not (or was made for
    other packages)."""
    target = path(name)
    marker = os.path.join(target, 'installed.txt')
    wanted = '\n'.join(PACKAGES[name]) + '\n'
    with open(target + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(marker) as f:
                if f.read() == wanted:
                    return target
        except OSError:
            pass
        shutil.rmtree(target, ignore_errors=True)
        # from the base interpreter, never a venv inside the test venv
        venv.EnvBuilder(with_pip=True).create(target)
        log_path = os.path.join(target, 'install.log')
        with open(log_path, 'wb') as log:
            result = subprocess.run(
                [os.path.join(target, 'bin', 'pip'), 'install', '-q',
                 '--disable-pip-version-check'] + PACKAGES[name],
                stdout=log, stderr=subprocess.STDOUT)
        if result.returncode:
            with open(log_path, 'rb') as log:
                tail = log.read()[-3000:].decode('utf-8', 'replace')
            raise RuntimeError('installing %s into %s failed:\n%s' % (
                ' '.join(PACKAGES[name]), target, tail))
        with open(marker, 'w') as f:
            f.write(wanted)
        return target


def binary(name, command):
    return os.path.join(path(name), 'bin', command)


if __name__ == '__main__':
    for service in sys.argv[1:] or sorted(PACKAGES):
        print('%s: %s' % (service, ensure(service)), flush=True)
