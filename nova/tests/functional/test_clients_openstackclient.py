"""python-openstackclient (``openstack``) against the all-in-one over HTTP, as
an admin and a project member, at 2.15, 2.16 and 2.latest, with every
host_status case seeded (see cases.py)."""
import json

from oslo_utils import uuidutils


from nova.tests.functional import cases
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO
VERSIONS = ('2.15', '2.16', '2.latest')


class OpenstackclientTest(cases.SeededTestCase):

    def osc(self, token, version, *args, ok=True):
        return self.run_cli('openstack', token, version, *args, ok=ok)

    def osc_json(self, token, version, *args):
        return json.loads(self.osc(token, version, *args, '-f', 'json').stdout)

    def test_server_show(self):
        stale = self.ids['c-stale']
        for version in VERSIONS:
            shown = self.osc_json(ADMIN, version, 'server', 'show', stale)
            # openstackclient prints every field it knows, null when absent
            self.assertEqual(None if version == '2.15' else 'UNKNOWN', shown['host_status'])
            self.assertEqual('host-2', shown['OS-EXT-SRV-ATTR:host'])
            shown = self.osc_json(DEMO, version, 'server', 'show', stale)
            self.assertIsNone(shown['host_status'])
            self.assertEqual('c-stale', shown['name'])
        # a host with no service row: the key is there, empty
        shown = self.osc_json(ADMIN, '2.16', 'server', 'show', self.ids['c-ghost'])
        self.assertEqual('', shown['host_status'])

    def test_server_list_long_host_status_column(self):
        for version in VERSIONS:
            # (--project NAME would need Keystone to resolve the name)
            rows = self.osc_json(ADMIN, version, 'server', 'list', '--all-projects',
                                 '--long', '--no-name-lookup')
            self.assertEqual(set(cases.CASES + cases.ADMIN_SERVERS), {r['Name'] for r in rows})
            if version == '2.15':
                self.assertNotIn('Host Status', rows[0])
            else:
                self.assertEqual(cases.EXPECTED, {r['Name']: r['Host Status'] for r in rows
                                                  if r['Name'] in cases.EXPECTED})
            # a member: no server carries the key, so no column
            rows = self.osc_json(DEMO, version, 'server', 'list', '--long')
            self.assertEqual(set(cases.CASES), {r['Name'] for r in rows})
            self.assertNotIn('Host Status', rows[0])
        # the plain listing resolves image names through the image document
        rows = self.osc_json(DEMO, '2.16', 'server', 'list', '--name', 'c-up')
        self.assertEqual('cirros', rows[0]['Image'])
        self.assertEqual('m1.tiny', rows[0]['Flavor'])

    def test_server_list_long_under_unknown_only_policy(self):
        self.grant_unknown_only_for_this_test()
        rows = self.osc_json(DEMO, '2.16', 'server', 'list', '--long')
        # the column appears because one server has the key; the rest are null
        self.assertEqual(dict(dict.fromkeys(cases.CASES), **{'c-stale': 'UNKNOWN'}),
                         {r['Name']: r['Host Status'] for r in rows})

    def test_compute_service_list(self):
        for version in VERSIONS:
            rows = self.osc_json(ADMIN, version, 'compute', 'service', 'list', '--long')
            by_host = {r['Host']: r for r in rows}
            self.assertEqual(['host-%d' % i for i in range(1, 6)], sorted(by_host))
            self.assertEqual(('up', 'down'), (by_host['host-1']['State'],
                                              by_host['host-2']['State']))
            self.assertTrue(by_host['host-3']['Forced Down'])
            self.assertEqual(('disabled', 'maintenance'), (by_host['host-4']['Status'],
                                                           by_host['host-4']['Disabled Reason']))
        done = self.osc(DEMO, '2.16', 'compute', 'service', 'list', ok=False)
        self.assertIn("403: Client Error", done.stderr)
        self.assertIn("Policy doesn't allow os_compute_api:os-services:list", done.stderr)

    def test_compute_service_set(self):
        set_ = ('compute', 'service', 'set')
        self.addCleanup(self.osc, ADMIN, '2.16', *set_, '--enable', '--up', 'host-1',
                        'nova-compute')
        self.osc(ADMIN, '2.16', *set_, '--disable', '--disable-reason', 'firmware',
                 'host-1', 'nova-compute')
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        self.osc(ADMIN, '2.16', *set_, '--down', 'host-1', 'nova-compute')
        self.assertEqual('DOWN', self._host_status_of_c_up())
        rows = self.osc_json(ADMIN, '2.16', 'compute', 'service', 'list', '--long',
                             '--host', 'host-1')
        self.assertEqual([('disabled', 'firmware', True)],
                         [(r['Status'], r['Disabled Reason'], r['Forced Down']) for r in rows])
        self.osc(ADMIN, '2.16', *set_, '--up', 'host-1', 'nova-compute')
        self.osc(ADMIN, '2.16', *set_, '--enable', 'host-1', 'nova-compute')
        self.assertEqual('UP', self._host_status_of_c_up())
        done = self.osc(DEMO, '2.16', *set_, '--disable', 'host-1', 'nova-compute', ok=False)
        self.assertIn('Failed to set service status to disabled', done.stderr)
        self.assertEqual('UP', self._host_status_of_c_up())

    def test_compute_service_set_by_uuid_at_2_53(self):
        # OSC finds the service by host and binary, then PUTs to its UUID
        set_ = ('compute', 'service', 'set')
        self.addCleanup(self.osc, ADMIN, '2.53', *set_, '--enable', '--up', 'host-1',
                        'nova-compute')
        self.osc(ADMIN, '2.53', *set_, '--disable', '--disable-reason', 'firmware',
                 'host-1', 'nova-compute')
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        self.osc(ADMIN, '2.53', *set_, '--down', 'host-1', 'nova-compute')
        self.assertEqual('DOWN', self._host_status_of_c_up())
        rows = self.osc_json(ADMIN, '2.53', 'compute', 'service', 'list', '--long',
                             '--host', 'host-1')
        self.assertEqual([('disabled', 'firmware', True)],
                         [(r['Status'], r['Disabled Reason'], r['Forced Down']) for r in rows])
        uuid = rows[0]['ID']
        self.assertTrue(uuidutils.is_uuid_like(uuid), rows)
        self.osc(ADMIN, '2.53', *set_, '--up', '--enable', 'host-1', 'nova-compute')
        self.assertEqual('UP', self._host_status_of_c_up())
        done = self.osc(ADMIN, '2.53', 'compute', 'service', 'delete', uuid, ok=False)
        self.assertIn('Unable to delete compute service that is hosting instances', done.stderr)
        done = self.osc(DEMO, '2.53', *set_, '--disable', 'host-1', 'nova-compute', ok=False)
        self.assertIn("Policy doesn't allow os_compute_api:os-services:list", done.stderr)
        self.assertEqual('UP', self._host_status_of_c_up())

    def test_server_create_by_image_name_and_delete(self):
        server = self.osc_json(DEMO, '2.16', 'server', 'create', '--image', 'cirros',
                               '--flavor', 'm1.tiny', '--wait', 'made-by-osc')
        self.assertEqual('ACTIVE', server['status'])
        self.assertIn(func.IMAGE, server['image'])
        self.assertEqual('UP', self.nova.show(server['id']).json['server']['host_status'])
        self.osc(DEMO, '2.16', 'server', 'delete', server['id'])
        self.nova._wait(lambda: self.nova.show(server['id']).status == 404, 20, 'deleted')

    def test_description_and_tags_at_2_53(self):
        server = self.osc_json(DEMO, '2.53', 'server', 'create', '--image', 'cirros',
                               '--flavor', 'm1.tiny', '--description', 'first web',
                               '--tag', 'web', '--tag', 'prod', '--wait', 'tagged-by-osc')
        self.addCleanup(self.osc, DEMO, '2.53', 'server', 'delete', server['id'])
        self.assertEqual('ACTIVE', server['status'])
        self.assertEqual('first web', server['description'])
        self.assertEqual(['prod', 'web'], sorted(server['tags']))
        self.osc(DEMO, '2.53', 'server', 'set', '--description', 'renamed web', '--tag',
                 'eu', server['id'])
        shown = self.osc_json(DEMO, '2.53', 'server', 'show', server['id'])
        self.assertEqual('renamed web', shown['description'])
        self.assertEqual(['eu', 'prod', 'web'], sorted(shown['tags']))
        self.assertEqual('m1.tiny', shown['flavor']['original_name']
                         if isinstance(shown['flavor'], dict) else shown['flavor'].split()[0])
        names = [row['Name'] for row in self.osc_json(DEMO, '2.53', 'server', 'list',
                                                       '--tags', 'eu,web')]
        self.assertEqual(['tagged-by-osc'], names)
        names = [row['Name'] for row in self.osc_json(DEMO, '2.53', 'server', 'list',
                                                       '--not-tags', 'eu')]
        self.assertNotIn('tagged-by-osc', names)
        self.assertIn('c-up', names)
