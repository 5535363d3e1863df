"""host_status end to end: real API under gunicorn, real nova-compute
processes heartbeating every second, a real SQLite file."""

import testtools

from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO


class HostStatusFlowTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.nova = self.useFixture(func.AllInOne(hosts=2, report_interval=1,
                                                  service_down_time=6))   # room for a busy CI

    def test_created_server_is_active_and_up(self):
        uuid = self.nova.create_server()
        server = self.nova.show(uuid).json['server']
        self.assertEqual('ACTIVE', server['status'])
        self.assertEqual(1, server['OS-EXT-STS:power_state'])
        self.assertEqual('UP', server['host_status'])
        self.assertEqual('host_status', list(server)[-1])
        # never at 2.15, never for the owner under the default policy
        self.assertNotIn('host_status', self.nova.show(uuid, version='2.15').json['server'])
        self.assertNotIn('host_status', self.nova.show(uuid, token=DEMO).json['server'])
        detail = self.nova.request('GET', '/v2.1/servers/detail', token=DEMO, version='2.16')
        self.assertNotIn('host_status', detail.json['servers'][0])

    def test_force_down_wins_over_disabled(self):
        uuid = self.nova.create_server_on('host-1')
        resp = self.nova.service_action('force-down', 'host-1', forced_down=True)
        self.assertEqual(200, resp.status)
        self.assertEqual({'service': {'host': 'host-1', 'binary': 'nova-compute',
                                      'forced_down': True}}, resp.json)
        self.assertEqual('DOWN', self.nova.show(uuid).json['server']['host_status'])
        self.nova.service_action('disable', 'host-1')
        self.assertEqual('DOWN', self.nova.show(uuid).json['server']['host_status'])
        self.nova.service_action('force-down', 'host-1', forced_down=False)
        self.assertEqual('MAINTENANCE', self.nova.show(uuid).json['server']['host_status'])
        # the compute kept heartbeating all along: operator flags survive it
        services = {s['host']: s for s in self.nova.services()}
        self.assertEqual('disabled', services['host-1']['status'])
        self.assertFalse(services['host-1']['forced_down'])

    def test_frozen_compute_is_unknown_then_up_when_thawed(self):
        uuid = self.nova.create_server_on('host-1')
        other = self.nova.create_server_on('host-2')
        self.nova.freeze('host-1')
        self.nova.wait_for_host_status(uuid, 'UNKNOWN', timeout=15)
        self.assertEqual('UP', self.nova.show(other).json['server']['host_status'])
        services = {s['host']: s['state'] for s in self.nova.services()}
        self.assertEqual({'host-1': 'down', 'host-2': 'up'}, services)
        self.nova.thaw('host-1')
        self.nova.wait_for_host_status(uuid, 'UP', timeout=15)

    def test_no_valid_host_gives_error_and_empty_host_status(self):
        for host in self.nova.host_names:
            self.nova.service_action('disable', host)
        uuid = self.nova.create_server(wait_status=None)
        server = self.nova.show(uuid).json['server']
        self.assertEqual('ERROR', server['status'])
        self.assertIsNone(server['OS-EXT-SRV-ATTR:host'])
        self.assertEqual('', server['hostId'])
        self.assertEqual('', server['host_status'])
        self.assertEqual(500, server['fault']['code'])
        self.assertIn('No valid host was found', server['fault']['message'])

    def test_unknown_host_is_never_chosen(self):
        self.nova.freeze('host-1')
        self.nova._wait(lambda: {s['host']: s['state'] for s in self.nova.services()}
                        ['host-1'] == 'down', 15, 'host-1 down')
        uuids = [self.nova.create_server(name='s%d' % i) for i in range(3)]
        hosts = {self.nova.show(u).json['server']['OS-EXT-SRV-ATTR:host'] for u in uuids}
        self.assertEqual({'host-2'}, hosts)

    def test_delete_on_forced_down_host_is_local(self):
        uuid = self.nova.create_server_on('host-1')
        self.nova.service_action('force-down', 'host-1', forced_down=True)
        resp = self.nova.request('DELETE', '/v2.1/servers/%s' % uuid, token=DEMO)
        self.assertEqual(204, resp.status)
        self.assertEqual(404, self.nova.show(uuid).status)

    def test_delete_on_up_host_goes_through_the_compute(self):
        uuid = self.nova.create_server_on('host-2')
        resp = self.nova.request('DELETE', '/v2.1/servers/%s' % uuid, token=DEMO)
        self.assertEqual(204, resp.status)
        self.nova._wait(lambda: self.nova.show(uuid).status == 404, 10, 'deleted')

    def test_policy_yaml_edit_takes_effect_without_restart(self):
        uuid = self.nova.create_server_on('host-1')
        self.assertNotIn('host_status', self.nova.show(uuid, token=DEMO).json['server'])
        self.nova.set_policy('"os_compute_api:servers:show:host_status": '
                             '"rule:project_reader_or_admin"\n',
                             lambda: self.nova.show(uuid, token=DEMO).json['server']
                             .get('host_status') == 'UP')
        # unknown-only: members see the key only while the host is UNKNOWN
        self.nova.set_policy(func.UNKNOWN_ONLY_POLICY, lambda: 'host_status' not in
                             self.nova.show(uuid, token=DEMO).json['server'])
        self.nova.freeze('host-1')
        self.nova._wait(lambda: self.nova.show(uuid, token=DEMO).json['server']
                        .get('host_status') == 'UNKNOWN', 15, 'unknown-only shows UNKNOWN')
        self.nova.thaw('host-1')


class ProcessLifecycleTest(testtools.TestCase):

    def test_sigterm_stops_a_compute_and_then_the_whole_tree(self):
        nova = self.useFixture(func.AllInOne(hosts=2))
        compute = nova.compute_process('host-1')
        compute.terminate()
        compute.wait(10)   # not our child: the exit code is read by the all-in-one
        self.assertIn('nova-compute host-1 exited (0); not restarted',
                      _wait_for_text(nova.all_in_one_output, 'not restarted'))
        children = func.psutil.Process(nova.process.pid).children(recursive=True)
        nova.process.terminate()
        self.assertEqual(0, nova.process.wait(20))
        gone, alive = func.psutil.wait_procs(children, timeout=10)
        self.assertEqual([], alive)


def _wait_for_text(read, text, timeout=10):
    import time
    deadline = time.monotonic() + timeout
    output = read()
    while text not in output and time.monotonic() < deadline:
        time.sleep(0.2)
        output = read()
    return output


class PortTakenTest(testtools.TestCase):

    def test_all_in_one_refuses_a_taken_port(self):
        import socket
        import subprocess
        import sys
        with socket.socket() as sock:
            sock.bind(('127.0.0.1', 0))
            sock.listen()
            port = sock.getsockname()[1]
            data_dir = self.useFixture(func.fixtures.TempDir()).path
            result = subprocess.run(
                [sys.executable, '-m', 'nova.cmd.all_in_one', '--port', str(port),
                 '--data-dir', data_dir], capture_output=True, text=True, timeout=60)
        self.assertNotEqual(0, result.returncode)
        self.assertIn('port %d on 127.0.0.1 is taken' % port, result.stderr)
