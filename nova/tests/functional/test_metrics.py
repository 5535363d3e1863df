"""The all-in-one's metrics over HTTP: the API's requests summed over every
API worker (uWSGI's, nova-api's default server; those that exited too), never on the API port, and a taken
metrics port stops each process at start with a clear error."""
import os
import socket
import subprocess
import sys
import urllib.request
import uuid as uuidlib

import testtools
from prometheus_client import parser

from nova.tests.functional import fixtures as func


def scrape(url):
    """{(name, sorted label pairs): value} of one /metrics."""
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    return text, {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
                  for family in parser.text_string_to_metric_families(text)
                  for sample in family.samples}


def requests_of(url, route, status):
    _, found = scrape(url)
    return found.get(('nova_api_request_duration_seconds_count',
                      (('method', 'GET'), ('route', route), ('status', status))), 0)


class AllInOneMetricsTest(func.SharedAllInOneTestCase):

    ALL_IN_ONE = dict(hosts=1, report_interval=1, service_down_time=6, api_workers=2)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def api_workers(self):
        return self.nova.api_worker_processes()

    def test_every_worker_counts_even_after_it_exited(self):
        route = '/servers/{server_id}'
        missing = [str(uuidlib.uuid4()) for _ in range(10)]
        before = requests_of(self.nova.metrics_url, route, '404')
        for uuid in missing[:5]:
            self.assertEqual(404, self.nova.show(uuid).status)
        old = self.api_workers()
        for worker in old:
            worker.terminate()     # the master starts new ones; their files stay
        func.psutil.wait_procs(old, timeout=20)
        self.nova._wait(lambda: len(self.api_workers()) == 2 and self.nova.request(
            'GET', '/').status == 200, 30, 'new API workers')
        for uuid in missing[5:]:
            self.assertEqual(404, self.nova.show(uuid).status)
        self.assertEqual(before + 10, requests_of(self.nova.metrics_url, route, '404'))
        text, _ = scrape(self.nova.metrics_url)
        for uuid in missing:
            self.assertNotIn(uuid, text)

    def test_metrics_are_not_served_on_the_api_port(self):
        response = self.nova.request('GET', '/metrics', token=None)
        self.assertEqual(404, response.status)
        self.assertNotIn(b'nova_', response.raw)

    def test_the_watcher_exports_the_hosts_and_the_banner_names_both(self):
        server = self.nova.create_server_on('host-1')
        self.nova._wait(lambda: scrape(self.nova.watcher_metrics_url)[1].get(
            ('nova_servers', (('host_status', 'UP'),))) == 1, 20, 'nova_servers UP 1')
        _, found = scrape(self.nova.watcher_metrics_url)
        self.assertEqual(1, found[('nova_host_status',
                                   (('host', 'host-1'), ('status', 'UP')))])
        self.assertEqual(1, found[('nova_host_status_watcher_active', ())])
        self.assertNotIn(server, scrape(self.nova.watcher_metrics_url)[0])
        output = self.nova.all_in_one_output()
        self.assertIn('API metrics    : %s' % self.nova.metrics_url, output)
        self.assertIn('watcher metrics: %s' % self.nova.watcher_metrics_url, output)


class TakenPortTest(testtools.TestCase):
    """Each process refuses a taken metrics port before it serves anything."""

    def setUp(self):
        super().setUp()
        self.sock = socket.socket()
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen()
        self.addCleanup(self.sock.close)
        self.port = self.sock.getsockname()[1]
        self.dir = self.useFixture(func.fixtures.TempDir()).path

    def run_program(self, module, config):
        path = os.path.join(self.dir, 'nova.conf')
        with open(path, 'w') as f:
            f.write('[database]\nconnection = sqlite:///%s/nova.sqlite\n%s'
                    % (self.dir, config))
        done = subprocess.run([sys.executable, '-m', module, '--config-file', path],
                              capture_output=True, text=True, timeout=60)
        self.assertNotEqual(0, done.returncode)
        return done.stderr

    def test_nova_api(self):
        self.assertIn('metrics port %d on 127.0.0.1 is taken; choose another with '
                      '[api] metrics_port' % self.port, self.run_program(
                          'nova.cmd.api', '[api]\nbind_port = %d\nmetrics_port = %d\n'
                          % (func.free_port(), self.port)))

    def test_nova_api_refuses_its_own_port(self):
        port = func.free_port()
        self.assertIn('[api] metrics_port = %d is the API port' % port, self.run_program(
            'nova.cmd.api', '[api]\nbind_port = %d\nmetrics_port = %d\n' % (port, port)))

    def test_nova_host_status_watcher(self):
        self.assertIn('metrics port %d on 127.0.0.1 is taken; choose another with '
                      '[host_status_watcher] metrics_port' % self.port, self.run_program(
                          'nova.cmd.host_status_watcher',
                          '[host_status_watcher]\nmetrics_port = %d\n' % self.port))

    def test_nova_all_in_one(self):
        for flag, other in (('--metrics-port', '--watcher-metrics-port'),
                            ('--watcher-metrics-port', '--metrics-port')):
            done = subprocess.run(
                [sys.executable, '-m', 'nova.cmd.all_in_one', '--port', str(func.free_port()),
                 flag, str(self.port), other, '0', '--data-dir', self.dir],
                capture_output=True, text=True, timeout=60)
            self.assertNotEqual(0, done.returncode)
            self.assertIn('port %d on 127.0.0.1 is taken' % self.port, done.stderr)
            self.assertIn('choose another with %s' % flag, done.stderr)
