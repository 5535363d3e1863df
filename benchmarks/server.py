"""Serve the API exactly as ``nova-all-in-one`` does (same command, same
config files, nova-api under gunicorn), on an ephemeral port, with no
simulated compute processes: the benchmark seeds its own hosts."""
import os
import socket
import subprocess
import sys
import time
import urllib.request

from nova import config
from nova import policy
from nova.db import engine
from nova.tests.functional import fixtures as func


def free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


class AllInOne:
    def __init__(self, data_dir, service_down_time=None, api_workers=None, config_files=(),
                 metrics_port=0):
        self.data_dir = data_dir
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d' % self.port
        self.config_files = [os.path.abspath(path) for path in config_files]
        # The API alone: a watcher's first look at a freshly seeded cloud
        # announces every service and each of its servers, which is no
        # steady state to time requests against.
        self.command = [sys.executable, '-m', 'nova.cmd.all_in_one', '--hosts', '0',
                        '--port', str(self.port), '--data-dir', data_dir,
                        '--no-host-status-watcher', '--metrics-port', str(metrics_port)]
        for path in self.config_files:
            self.command += ['--config-file', path]
        if service_down_time is not None:
            self.command += ['--service-down-time', str(service_down_time)]
        if api_workers is not None:
            self.command += ['--api-workers', str(api_workers)]
        self.process = None

    def __enter__(self):
        os.makedirs(self.data_dir, exist_ok=True)
        self.log = open(os.path.join(self.data_dir, 'all-in-one.log'), 'wb')
        self.process = subprocess.Popen(self.command, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit('nova-all-in-one exited; see %s' % self.log.name)
            try:
                with urllib.request.urlopen(self.url + '/', timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            self.stop()
            raise SystemExit('nova-api did not answer on %s' % self.url)
        self.use_config()
        return self

    def config_args(self):
        """The config files nova-all-in-one gave to nova-api, in its order."""
        files = ([os.path.join(self.data_dir, 'nova.conf')] + self.config_files
                 + [os.path.join(self.data_dir, 'flags.conf')])
        return [arg for path in files for arg in ('--config-file', path)]

    def use_config(self):
        """Point this process (seeding, in-process SQL counts) at the same config."""
        engine.reset()
        policy.reset()
        config.parse_args(self.config_args())

    def stop(self):
        if self.process is not None:
            func.terminate(self.process)
        self.log.close()

    def __exit__(self, *exc):
        engine.reset()
        self.stop()
