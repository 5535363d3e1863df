"""The clients InstanceHA and operators use on microversions 2.59-2.73,
against the all-in-one over HTTP: python-novaclient (``nova lock
--reason``, ``nova migration-list``, its Python API), python-openstackclient
(``openstack server lock --reason``, ``openstack server migration list``)
and openstacksdk (``lock_server``, ``migrations``).

One all-in-one for the class: ``evacuee`` was built on host-1, which was
then forced down, and evacuated (to host-2); ``lockme`` runs on host-2."""
import json

from nova.tests.functional import cases
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO


class LockAndMigrationsClientsTest(cases.SeededTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    @classmethod
    def seed_class(cls):
        nova = cls.nova
        cls.evacuee = nova.create_server_on('host-1', 'evacuee')
        cls.lockme = nova.create_server_on('host-2', 'lockme')
        nova.service_action('force-down', 'host-1', forced_down=True, version='2.11')
        resp = nova.request('POST', '/v2.1/servers/%s/action' % cls.evacuee,
                            version='2.73', body={'evacuate': {}})
        assert resp.status == 200, resp.raw
        nova._wait(lambda: nova.show(cls.evacuee).json['server']['OS-EXT-SRV-ATTR:host']
                   == 'host-2', 30, 'evacuated to host-2')

    def setUp(self):
        super().setUp()
        self.addCleanup(self._unlock)

    def _unlock(self):
        self.nova.request('POST', '/v2.1/servers/%s/action' % self.lockme,
                          body={'unlock': None})

    def _shown(self, token=ADMIN):
        return self.nova.show(self.lockme, token=token, version='2.73').json['server']

    # ------------------------------------------------------------ lock

    def test_nova_lock_reason(self):
        self.run_cli('nova', DEMO, '2.latest', 'lock', '--reason', 'disk swap', self.lockme)
        server = self._shown(DEMO)
        self.assertEqual((True, 'disk swap'), (server['locked'], server['locked_reason']))
        shown = self.run_cli('nova', DEMO, '2.latest', 'show', self.lockme).stdout
        self.assertIn('disk swap', shown)
        listed = self.run_cli('nova', ADMIN, '2.latest', 'list', '--all-tenants',
                              '--locked', 'true').stdout
        self.assertIn(self.lockme, listed)
        self.assertNotIn(self.evacuee, listed)
        self.run_cli('nova', DEMO, '2.latest', 'unlock', self.lockme)
        self.assertEqual((False, None), (self._shown()['locked'], self._shown()['locked_reason']))
        # below 2.73 the client refuses the option itself
        self.run_cli('nova', DEMO, '2.72', 'lock', '--reason', 'x', self.lockme, ok=False)

    def test_novaclient_python_api(self):
        nova = clients.novaclient(self.nova, ADMIN, '2.latest')
        self.assertEqual('2.73', nova.api_version.get_string())
        nova.servers.lock(self.lockme, reason='instanceha-evacuation')
        self.assertEqual('instanceha-evacuation', nova.servers.get(self.lockme).locked_reason)
        migrations = nova.migrations.list(instance_uuid=self.evacuee,
                                          migration_type='evacuation', limit=1000)
        self.assertEqual([('evacuation', 'host-1', 'host-2')],
                         [(m.migration_type, m.source_compute, m.dest_compute)
                          for m in migrations])
        self.assertIn(migrations[0].status, ('pre-migrating', 'done', 'completed'))
        self.assertEqual([], nova.migrations.list(source_compute='host-2'))

    def test_osc_lock_reason(self):
        self.run_cli('openstack', ADMIN, '2.73', 'server', 'lock', '--reason', 'ops',
                     self.lockme)
        shown = json.loads(self.run_cli('openstack', ADMIN, '2.73', 'server', 'show',
                                        self.lockme, '-f', 'json').stdout)
        self.assertEqual((True, 'ops'), (shown['locked'], shown['locked_reason']))
        self.run_cli('openstack', ADMIN, '2.73', 'server', 'unlock', self.lockme)
        self.assertFalse(self._shown()['locked'])

    # ------------------------------------------------------------ migrations

    def test_nova_migration_list(self):
        for version in ('2.1', '2.23', '2.latest'):
            out = self.run_cli('nova', ADMIN, version, 'migration-list',
                               '--instance-uuid', self.evacuee).stdout
            self.assertIn(self.evacuee, out, version)
            self.assertIn('host-1', out, version)
        out = self.run_cli('nova', ADMIN, '2.latest', 'migration-list',
                           '--migration-type', 'evacuation', '--source-compute', 'host-1',
                           '--limit', '1000').stdout
        self.assertIn(self.evacuee, out)
        self.run_cli('nova', DEMO, '2.latest', 'migration-list', ok=False)

    def test_osc_server_migration_list(self):
        rows = json.loads(self.run_cli(
            'openstack', ADMIN, '2.73', 'server', 'migration', 'list', '--server',
            self.evacuee, '--type', 'evacuation', '-f', 'json').stdout)
        self.assertEqual(1, len(rows), rows)
        self.assertEqual(('host-1', 'host-2', 'evacuation'),
                         (rows[0]['Source Compute'], rows[0]['Dest Compute'], rows[0]['Type']))
        rows = json.loads(self.run_cli(
            'openstack', ADMIN, '2.73', 'server', 'migration', 'list', '--host', 'host-1',
            '--limit', '1', '-f', 'json').stdout)
        self.assertEqual([self.evacuee], [r['Server UUID'] for r in rows])

    def test_sdk(self):
        conn = clients.sdk(self.nova, ADMIN)
        conn.compute.lock_server(self.lockme, locked_reason='sdk')
        self.assertEqual('sdk', conn.compute.get_server(self.lockme).locked_reason)
        migrations = list(conn.compute.migrations(server_id=self.evacuee,
                                                  migration_type='evacuation'))
        self.assertEqual([('host-1', 'host-2')],
                         [(m.source_compute, m.dest_compute) for m in migrations])
        self.assertTrue(migrations[0].uuid)
