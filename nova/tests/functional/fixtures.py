"""Runs the real product for functional tests: ``nova-all-in-one`` (API under
uWSGI, N nova-compute processes) on a temporary SQLite file and an
ephemeral port, and talks to it over HTTP."""
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import fixtures
import testtools
import psutil
from testtools import content

from nova.tests import fixtures as nova_fixtures
from nova.virt import fake
from nova.virt import power

ADMIN = 'admin:admin'
DEMO = 'demo:demo'
IMAGE = nova_fixtures.IMAGE
# members see host_status only while it is UNKNOWN, as policy.yaml text
UNKNOWN_ONLY_POLICY = json.dumps(nova_fixtures.UNKNOWN_ONLY_POLICY) + '\n'


def free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def terminate(process, timeout=20):
    """SIGTERM a process started with start_new_session=True; SIGKILL its
    whole group if it has not stopped within ``timeout`` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers        # list of (name, value), in order
        self.raw = body
        self.json = json.loads(body) if body else None

    def header(self, name):
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        return values[0] if values else None

    def header_values(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]


def check_tempest_schema(method, url, response):
    """Every successful response must pass the schema tempest applies to it."""
    from nova.tests.functional import tempest_schemas
    path = urllib.parse.urlsplit(url).path
    try:
        tempest_schemas.validate(method, path, response.status, response.headers,
                                 response.json)
    except tempest_schemas.Unvalidated:
        pass
    except Exception as exc:
        raise AssertionError('%s %s: tempest schema: %s' % (method, path, exc))


class AllInOne(fixtures.Fixture):
    """``nova-all-in-one`` with short liveness settings.

    ``extra_config`` is text appended to a --config-file (e.g. a
    [database] connection); ``policy`` is written as policy.yaml.
    """

    def __init__(self, hosts=2, report_interval=1, service_down_time=3,
                 extra_config=None, api_workers=1, servicegroup_url=None, tokens=None,
                 ready_timeout=60, fence=None):
        """``tokens`` maps the noauth2 tokens the helpers send (ADMIN,
        DEMO) to others, e.g. Keystone's when ``extra_config`` puts the
        API behind it; ``ready_timeout`` bounds the wait for every compute
        to be up."""
        super().__init__()
        self.tokens = tokens or {}
        self.ready_timeout = ready_timeout
        self.servicegroup_url = servicegroup_url
        self.fence = fence      # 'redfish': BMCs, and the watcher fences through them
        self.validate_schemas = True     # see check_tempest_schema
        self.hosts = hosts
        self.report_interval = report_interval
        self.service_down_time = service_down_time
        self.extra_config = extra_config
        self.api_workers = api_workers
        # host -> Popen of a nova-compute a test started again after a kill
        self.restarted_computes = {}

    def _setUp(self):
        self.data_dir = self.useFixture(fixtures.TempDir()).path
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d' % self.port
        self.metrics_port, self.watcher_metrics_port = free_port(), free_port()
        self.metrics_url = 'http://127.0.0.1:%d/metrics' % self.metrics_port
        self.watcher_metrics_url = 'http://127.0.0.1:%d/metrics' % self.watcher_metrics_port
        command = [sys.executable, '-m', 'nova.cmd.all_in_one',
                   '--hosts', str(self.hosts), '--port', str(self.port),
                   '--metrics-port', str(self.metrics_port),
                   '--watcher-metrics-port', str(self.watcher_metrics_port),
                   '--data-dir', self.data_dir,
                   '--report-interval', str(self.report_interval),
                   '--service-down-time', str(self.service_down_time),
                   '--api-workers', str(self.api_workers)]
        if self.servicegroup_url:
            command += ['--servicegroup-url', self.servicegroup_url]
        if self.fence:
            command += ['--fence', self.fence, '--bmc-port', '0']
        if self.extra_config:
            path = os.path.join(self.data_dir, 'extra.conf')
            with open(path, 'w') as f:
                f.write(self.extra_config)
            command += ['--config-file', path]
        self.log = open(os.path.join(self.data_dir, 'all-in-one.log'), 'wb')
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        self.addCleanup(self._stop)
        self.host_names = ['host-%d' % (i + 1) for i in range(self.hosts)]
        # up and reported: with the db driver a service counts as up from
        # its registration, a moment before its first heartbeat sets
        # updated_at; with tooz, up is a heartbeat and updated_at stays null
        self._wait(lambda: len([s for s in self.services()
                                if s['state'] == 'up'
                                and (s['updated_at'] or self.servicegroup_url)])
                   == self.hosts, self.ready_timeout, 'computes up')

    def _stop(self):
        for pid in list(self._stopped):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        terminate(self.process)
        self.log.close()

    _stopped = set()

    def attach_logs_on_failure(self, test):
        """Every log of the tree as a detail of ``test`` when it fails."""
        def attach(exc_info):
            log_dir = os.path.join(self.data_dir, 'logs')
            for name in sorted(os.listdir(log_dir)):
                with open(os.path.join(log_dir, name), 'rb') as f:
                    test.addDetail(name, content.text_content(
                        f.read()[-20000:].decode('utf-8', 'replace')))
        test.addOnException(attach)

    def api_process(self):
        """nova-api: the parent of the WSGI server's processes."""
        return [p for p in psutil.Process(self.process.pid).children()
                if 'nova.cmd.api' in p.cmdline()][0]

    def api_worker_processes(self):
        """The processes that serve requests: the leaves under nova-api
        (uWSGI's workers under its master, or gunicorn's)."""
        return [p for p in self.api_process().children(recursive=True) if not p.children()]

    def all_in_one_output(self):
        with open(os.path.join(self.data_dir, 'all-in-one.log'), 'rb') as f:
            return f.read().decode('utf-8', 'replace')

    # ----------------------------------------------------------------- HTTP

    def request(self, method, path, token=ADMIN, version=None, body=None,
                headers=None):
        url = path if path.startswith('http') else self.url + path
        all_headers = {'Accept': 'application/json'}
        if token:
            all_headers['X-Auth-Token'] = self.tokens.get(token, token)
        if version:
            all_headers['OpenStack-API-Version'] = 'compute %s' % version
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers['Content-Type'] = 'application/json'
        all_headers.update(headers or {})
        req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                response = Response(resp.status, resp.getheaders(), resp.read())
        except urllib.error.HTTPError as err:
            response = Response(err.code, err.headers.items(), err.read())
        if self.validate_schemas and response.status < 300:
            check_tempest_schema(method, url, response)
        return response

    def services(self):
        try:
            resp = self.request('GET', '/v2.1/os-services', version='2.16')
        except OSError:
            return []
        return resp.json['services'] if resp.status == 200 else []

    def create_server(self, name='vm', token=DEMO, wait_status='ACTIVE', version=None,
                      **server):
        server.setdefault('imageRef', IMAGE)
        server.setdefault('flavorRef', '1')
        resp = self.request('POST', '/v2.1/servers', token=token, version=version,
                            body={'server': dict(name=name, **server)})
        assert resp.status == 202, (resp.status, resp.raw)
        uuid = resp.json['server']['id']
        if wait_status:
            self.wait_for_server(uuid, wait_status)
        return uuid

    def create_server_on(self, host, name='vm', token=DEMO, wait_status='ACTIVE',
                         version=None):
        """A server built on ``host``: the other hosts are disabled meanwhile,
        so the scheduler has that one choice."""
        others = [h for h in self.host_names if h != host]
        for other in others:
            self.service_action('disable', other)
        try:
            uuid = self.create_server(name=name, token=token, wait_status=wait_status,
                                      version=version)
        finally:
            for other in others:
                self.service_action('enable', other)
        placed = self.show(uuid).json['server']['OS-EXT-SRV-ATTR:host']
        assert placed == host, (uuid, placed, host)
        return uuid

    def create_server_without_a_host(self, name='no-valid-host', version=None):
        """A server no host was valid for (every host disabled meanwhile): ERROR."""
        for host in self.host_names:
            self.service_action('disable', host)
        try:
            return self.create_server(name=name, wait_status='ERROR', version=version)
        finally:
            for host in self.host_names:
                self.service_action('enable', host)

    def show(self, uuid, token=ADMIN, version='2.16'):
        return self.request('GET', '/v2.1/servers/%s' % uuid, token=token, version=version)

    def wait_for_server(self, uuid, status, timeout=20):
        self._wait(lambda: self.show(uuid).json['server']['status'] == status,
                   timeout, 'server %s %s' % (uuid, status))

    def wait_for_host_status(self, uuid, value, timeout=30):
        self._wait(lambda: self.show(uuid).json['server'].get('host_status') == value,
                   timeout, 'host_status %s' % value)

    def set_policy(self, text, check, timeout=15):
        """Write policy.yaml and wait until ``check()`` says the API has
        read it (it re-reads the file when its mtime changes)."""
        with open(os.path.join(self.data_dir, 'policy.yaml'), 'w') as f:
            f.write(text)
        self._wait(check, timeout, 'policy.yaml reload')

    def service_action(self, action, host, version='2.16', token=ADMIN, **extra):
        body = dict(host=host, binary='nova-compute', **extra)
        return self.request('PUT', '/v2.1/os-services/%s' % action, version=version,
                            body=body, token=token)

    # ------------------------------------------------------------ processes

    def start_compute(self, host):
        """Start ``host``'s nova-compute again (after a kill: the all-in-one
        never restarts one), on the all-in-one's own configuration; it is
        compute_process(host) from now on, and stopped at cleanup."""
        config = []
        for name in ('nova.conf', 'flags.conf', 'extra.conf'):
            path = os.path.join(self.data_dir, name)
            if os.path.exists(path):     # extra.conf: extra_config, if any
                config += ['--config-file', path]
        with open(self.restart_log(host), 'ab') as log:
            process = subprocess.Popen(
                [sys.executable, '-m', 'nova.cmd.compute', '--host', host] + config,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        if not self.restarted_computes:
            self.addCleanup(self._stop_restarted_computes)
        self.restarted_computes[host] = process
        return process

    def restart_log(self, host):
        """Where start_compute(host)'s processes log, one after another."""
        return os.path.join(self.data_dir, 'logs', 'restarted-%s.log' % host)

    def _stop_restarted_computes(self):
        for process in self.restarted_computes.values():
            terminate(process)

    def compute_process(self, host):
        if host in self.restarted_computes:
            return psutil.Process(self.restarted_computes[host].pid)
        for child in psutil.Process(self.process.pid).children(recursive=True):
            cmdline = child.cmdline()
            if 'nova.cmd.compute' in cmdline and host in cmdline:
                return child
        raise LookupError(host)

    def freeze(self, host):
        process = self.compute_process(host)
        process.suspend()
        self._stopped = self._stopped | {process.pid}

    def freeze_outside_writes(self, host, attempts=50):
        """freeze(), but never while the compute holds the SQLite file's
        write lock (a heartbeat mid-commit): frozen there it would block
        every other writer, the host-status watcher included, until thawed."""
        path = os.path.join(self.data_dir, 'nova.sqlite')
        for _ in range(attempts):
            self.freeze(host)
            conn = sqlite3.connect(path, timeout=0.5)
            try:
                conn.execute('BEGIN IMMEDIATE')
                conn.rollback()
                return
            except sqlite3.OperationalError:
                self.thaw(host)
                time.sleep(0.05)
            finally:
                conn.close()
        raise AssertionError('could not freeze %s outside a write' % host)

    def thaw(self, host):
        process = self.compute_process(host)
        process.resume()
        self._stopped = self._stopped - {process.pid}

    def fill_disk(self, host, full=True):
        """Fill (or free) ``host``'s simulated disk: its spawns fail."""
        fake.fill_disk(power.guests_file(os.path.join(self.data_dir, 'hypervisors'), host),
                       full)

    @staticmethod
    def _wait(predicate, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if predicate():
                    return
            except OSError:     # the API not listening yet, or restarting
                pass
            time.sleep(0.2)
        raise AssertionError('timed out waiting for %s' % what)




class SharedAllInOneTestCase(testtools.TestCase):
    """One all-in-one for every test of the class, started with the
    arguments in ``ALL_IN_ONE``; ``seed_class()`` adds what the tests share
    (when it fails, the all-in-one is stopped)."""

    ALL_IN_ONE = {}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.nova = AllInOne(**cls.ALL_IN_ONE)
        cls.nova.setUp()
        try:
            cls.seed_class()
        except BaseException:
            cls.nova.cleanUp()
            raise

    @classmethod
    def seed_class(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        cls.nova.cleanUp()
        super().tearDownClass()
