"""python-novaclient, its Python API and the ``nova`` command line, against
the all-in-one over HTTP, as an admin and a project member, at 2.15, 2.16
and 2.latest, with every host_status case seeded (see cases.py)."""
from novaclient import exceptions as nova_exc
from oslo_utils import uuidutils

from nova.api.openstack import api_version_request as avr
from nova.tests.functional import cases
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO
VERSIONS = ('2.15', '2.16', '2.latest')
NON_EXISTENT = "Non-existent fields are specified: ['host_status']"


class NovaclientTest(cases.SeededTestCase):

    def cli(self, token, version, *args, ok=True):
        return self.run_cli('nova', token, version, *args, ok=ok)

    # ------------------------------------------------------------ Python API

    def test_python_api_servers(self):
        for version in VERSIONS:
            admin = clients.novaclient(self.nova, ADMIN, version)
            demo = clients.novaclient(self.nova, DEMO, version)
            with_key = version != '2.15'
            listed = {s.name: getattr(s, 'host_status', None) for s in admin.servers.list(
                search_opts={'all_tenants': 1, 'project_id': 'demo'})}
            self.assertEqual(cases.EXPECTED if with_key else dict.fromkeys(cases.EXPECTED),
                             listed)
            for name, expected in cases.EXPECTED.items():
                server = admin.servers.get(self.ids[name])
                self.assertEqual(expected if with_key else None,
                                 getattr(server, 'host_status', None), (version, name))
                self.assertFalse(hasattr(demo.servers.get(self.ids[name]), 'host_status'))
            self.assertFalse(any(hasattr(s, 'host_status') for s in demo.servers.list()))
            self.assertRaises(nova_exc.NotFound, demo.servers.get,
                              self.ids[cases.OTHER_PROJECT])
        self.assertEqual(avr.MAX_VERSION, str(clients.novaclient(
            self.nova, ADMIN, '2.latest').api_version.get_string()))

    def test_python_api_services(self):
        admin = clients.novaclient(self.nova, ADMIN, '2.16')
        self.addCleanup(admin.services.force_down, 'host-1', 'nova-compute', False)
        self.addCleanup(admin.services.enable, 'host-1', 'nova-compute')
        rows = {s.host: s for s in admin.services.list()}
        # host-6's row is gone; host-1's soft-deleted row is not listed
        self.assertEqual(['host-%d' % i for i in range(1, 6)], sorted(rows))
        self.assertEqual(('up', 'down'), (rows['host-1'].state, rows['host-2'].state))
        self.assertTrue(rows['host-3'].forced_down)
        self.assertEqual('maintenance', rows['host-4'].disabled_reason)
        self.assertFalse(hasattr(clients.novaclient(self.nova, ADMIN, '2.10')
                                 .services.list()[0], 'forced_down'))

        admin.services.disable_log_reason('host-1', 'nova-compute', 'disk swap')
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        admin.services.force_down('host-1', 'nova-compute', True)
        self.assertEqual('DOWN', self._host_status_of_c_up())
        admin.services.force_down('host-1', 'nova-compute', False)
        admin.services.enable('host-1', 'nova-compute')
        self.assertEqual('UP', self._host_status_of_c_up())

        demo = clients.novaclient(self.nova, DEMO, '2.16')
        self.assertRaises(nova_exc.Forbidden, demo.services.list)
        self.assertRaises(nova_exc.Forbidden, demo.services.disable, 'host-1', 'nova-compute')

    def test_python_api_services_by_uuid_at_2_53(self):
        # Masakari's calls: disable_log_reason(service_uuid, reason), force_down
        admin = clients.novaclient(self.nova, ADMIN, '2.53')
        rows = {s.host: s for s in admin.services.list()}
        uuid = rows['host-1'].id
        self.assertTrue(uuidutils.is_uuid_like(uuid), uuid)
        self.addCleanup(admin.services.force_down, uuid, False)
        self.addCleanup(admin.services.enable, uuid)
        service = admin.services.disable_log_reason(uuid, 'disk swap')
        self.assertEqual((uuid, 'host-1', 'disabled', 'disk swap', False),
                         (service.id, service.host, service.status, service.disabled_reason,
                          service.forced_down))
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        self.assertTrue(admin.services.force_down(uuid, True).forced_down)
        self.assertEqual('DOWN', self._host_status_of_c_up())
        admin.services.force_down(uuid, False)
        self.assertEqual('enabled', admin.services.enable(uuid).status)
        self.assertEqual('UP', self._host_status_of_c_up())
        # host-1 has servers; an integer is no id at 2.53
        self.assertRaises(nova_exc.Conflict, admin.services.delete, uuid)
        self.assertRaises(nova_exc.BadRequest, admin.services.delete, rows['host-1'].host)
        demo = clients.novaclient(self.nova, DEMO, '2.53')
        self.assertRaises(nova_exc.Forbidden, demo.services.disable, uuid)
        self.assertEqual('UP', self._host_status_of_c_up())

    # ------------------------------------------------------------ nova CLI

    def test_cli_show(self):
        stale = self.ids['c-stale']
        for version in VERSIONS:
            shown = clients.properties(self.cli(ADMIN, version, 'show', stale).stdout)
            self.assertEqual('c-stale', shown['name'])
            self.assertEqual(None if version == '2.15' else 'UNKNOWN',
                             shown.get('host_status'))
            shown = clients.properties(self.cli(DEMO, version, 'show', stale).stdout)
            self.assertEqual('ACTIVE', shown['status'])
            self.assertNotIn('host_status', shown)

    def test_cli_list_fields_host_status(self):
        fields = ('--fields', 'name,status,host_status')
        for version in ('2.16', '2.latest'):
            rows = clients.table(self.cli(ADMIN, version, 'list', '--all-tenants',
                                          *fields).stdout)
            self.assertEqual(['ID', 'Name', 'Status', 'Host Status'], list(rows[0]))
            got = {r['Name']: r['Host Status'] for r in rows if r['Name'] in cases.EXPECTED}
            self.assertEqual(cases.EXPECTED, got)
        # The client's quirk: the FIRST server of the response decides which
        # fields exist. At 2.15, and for a member, no server has the key.
        for token, version in ((ADMIN, '2.15'), (DEMO, '2.16'), (DEMO, '2.latest')):
            done = self.cli(token, version, 'list', *fields, ok=False)
            self.assertIn(NON_EXISTENT, done.stderr)
        # Without host_status in --fields, everyone lists fine.
        rows = clients.table(self.cli(DEMO, '2.16', 'list', '--fields', 'name,status').stdout)
        self.assertEqual(set(cases.CASES), {r['Name'] for r in rows})

    def test_cli_list_fields_under_unknown_only_policy(self):
        self.grant_unknown_only_for_this_test()
        fields = ('--fields', 'name,host_status')
        # the newest server (c-reborn) is UP, so it lacks the key: refused
        done = self.cli(DEMO, '2.16', 'list', *fields, ok=False)
        self.assertIn(NON_EXISTENT, done.stderr)
        # narrowed to servers that carry it, the member sees UNKNOWN
        rows = clients.table(self.cli(DEMO, '2.16', 'list', '--name', 'c-stale',
                                      *fields).stdout)
        self.assertEqual([('c-stale', 'UNKNOWN')], [(r['Name'], r['Host Status'])
                                                    for r in rows])
        shown = clients.properties(self.cli(DEMO, '2.16', 'show', self.ids['c-stale']).stdout)
        self.assertEqual('UNKNOWN', shown['host_status'])

    def test_cli_services(self):
        for version in VERSIONS:
            rows = clients.table(self.cli(ADMIN, version, 'service-list').stdout)
            by_host = {r['Host']: r for r in rows}
            self.assertEqual('down', by_host['host-2']['State'])
            self.assertEqual('True', by_host['host-3']['Forced down'])
            self.assertEqual('maintenance', by_host['host-4']['Disabled Reason'])
        done = self.cli(DEMO, '2.16', 'service-list', ok=False)
        self.assertIn('(HTTP 403)', done.stderr)

        self.addCleanup(self.cli, ADMIN, '2.16', 'service-enable', 'host-1')
        self.addCleanup(self.cli, ADMIN, '2.16', 'service-force-down', '--unset', 'host-1')
        rows = clients.table(self.cli(ADMIN, '2.16', 'service-disable', '--reason',
                                      'firmware', 'host-1').stdout)
        self.assertEqual([{'Host': 'host-1', 'Binary': 'nova-compute', 'Status': 'disabled',
                           'Disabled Reason': 'firmware'}], rows)
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        rows = clients.table(self.cli(ADMIN, '2.16', 'service-force-down', 'host-1').stdout)
        self.assertEqual('True', rows[0]['Forced down'])
        self.assertEqual('DOWN', self._host_status_of_c_up())
        self.cli(ADMIN, '2.16', 'service-force-down', '--unset', 'host-1')
        rows = clients.table(self.cli(ADMIN, '2.16', 'service-enable', 'host-1').stdout)
        self.assertEqual('enabled', rows[0]['Status'])
        self.assertEqual('UP', self._host_status_of_c_up())
        done = self.cli(DEMO, '2.16', 'service-disable', 'host-1', ok=False)
        self.assertIn('(HTTP 403)', done.stderr)

    def test_cli_services_by_uuid_at_2_53(self):
        rows = clients.table(self.cli(ADMIN, '2.53', 'service-list', '--host', 'host-1').stdout)
        uuid = rows[0]['Id']
        self.assertTrue(uuidutils.is_uuid_like(uuid), rows)
        self.addCleanup(self.cli, ADMIN, '2.53', 'service-enable', uuid)
        self.addCleanup(self.cli, ADMIN, '2.53', 'service-force-down', '--unset', uuid)
        rows = clients.table(self.cli(ADMIN, '2.53', 'service-disable', '--reason', 'firmware',
                                      uuid).stdout)
        self.assertEqual([{'ID': uuid, 'Host': 'host-1', 'Binary': 'nova-compute',
                           'Status': 'disabled', 'Disabled Reason': 'firmware'}], rows)
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        rows = clients.table(self.cli(ADMIN, '2.53', 'service-force-down', uuid).stdout)
        self.assertEqual([{'ID': uuid, 'Host': 'host-1', 'Binary': 'nova-compute',
                           'Forced down': 'True'}], rows)
        self.assertEqual('DOWN', self._host_status_of_c_up())
        self.cli(ADMIN, '2.53', 'service-force-down', '--unset', uuid)
        rows = clients.table(self.cli(ADMIN, '2.53', 'service-enable', uuid).stdout)
        self.assertEqual('enabled', rows[0]['Status'])
        self.assertEqual('UP', self._host_status_of_c_up())
        done = self.cli(ADMIN, '2.53', 'service-delete', uuid, ok=False)
        self.assertIn('Unable to delete compute service that is hosting instances', done.stderr)
        done = self.cli(ADMIN, '2.53', 'service-disable', 'host-1', ok=False)
        self.assertIn('Invalid uuid host-1 (HTTP 400)', done.stderr)

    def test_cli_boot_by_image_name_and_delete(self):
        done = self.cli(DEMO, '2.16', 'boot', '--image', 'cirros', '--flavor', 'm1.tiny',
                        '--poll', 'booted-by-nova')
        self.assertIn('cirros (%s)' % func.IMAGE, clients.properties(done.stdout)['image'])
        uuid = clients.properties(done.stdout)['id']
        self.assertEqual('ACTIVE', self.nova.show(uuid).json['server']['status'])
        self.assertEqual('UP', self.nova.show(uuid).json['server']['host_status'])
        self.cli(DEMO, '2.16', 'delete', uuid)
        self.nova._wait(lambda: self.nova.show(uuid).status == 404, 20, 'deleted')
