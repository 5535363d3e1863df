"""The server actions from real clients, unmodified: openstackclient
(``server stop|start|lock|evacuate``) and novaclient (``nova evacuate``,
``nova reset-state``), against the all-in-one as README.rst's "Using real
clients" shows. Few invocations on purpose: each client start is the cost."""
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func
from nova.tests.functional import server_actions as sa

ADMIN, DEMO = func.ADMIN, func.DEMO


class ServerActionClientsTest(func.SharedAllInOneTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def cli(self, program, token, *args, ok=True, version='2.16'):
        done = clients.run(self.nova, program, args, token, version)
        self.assertEqual(ok, done.returncode == 0, (args, done.stdout, done.stderr))
        return done

    def test_actions_and_evacuate(self):
        nova = self.nova
        by_osc = nova.create_server_on('host-2', name='by-osc')
        by_nova = nova.create_server_on('host-2', name='by-nova')
        self.cli('openstack', DEMO, 'server', 'stop', by_osc)
        sa.wait_for_state(nova, by_osc, ('SHUTOFF', 'stopped', None, 4, 'host-2'))
        self.cli('openstack', ADMIN, 'server', 'lock', by_osc)
        done = self.cli('openstack', DEMO, 'server', 'start', by_osc, ok=False)
        self.assertIn('Instance %s is locked' % by_osc, done.stderr)
        done = self.cli('openstack', ADMIN, 'server', 'evacuate', by_osc, ok=False)
        self.assertIn('Compute service of host-2 is still in use.', done.stderr)
        nova.service_action('force-down', 'host-2', version='2.11', forced_down=True)
        self.cli('openstack', ADMIN, 'server', 'evacuate', by_osc)
        self.cli('nova', ADMIN, 'evacuate', by_nova)
        sa.wait_for_state(nova, by_osc, ('SHUTOFF', 'stopped', None, 4, 'host-1'), 30)
        sa.wait_for_state(nova, by_nova, ('ACTIVE', 'active', None, 1, 'host-1'), 30)
        self.assertEqual('UP', nova.show(by_nova).json['server']['host_status'])
        self.cli('nova', ADMIN, 'reset-state', by_nova)
        self.assertEqual('ERROR', sa.state(nova, by_nova)[0])
