"""Server keys per microversion and role, against Nova 34's captures."""
import json
import os


from nova.tests import fixtures as nova_fixtures

REFERENCE = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'shared',
                         'reference', 'nova-34')


def capture_keys(name):
    path = os.path.join(REFERENCE, name)
    if not os.path.exists(path):
        raise FileNotFoundError('reference capture missing: %s' % path)
    with open(path) as f:
        server = json.load(f)['body_json']['server']
    return list(server)


class ServerViewTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h-up')
        self.uuid = nova_fixtures.add_server('c-up', host='h-up')

    def keys(self, token, version):
        resp = self.api.request('GET', '/v2.1/servers/' + self.uuid, token=token,
                                version=version)
        self.assertEqual(200, resp.status_int)
        return list(resp.json['server'])

    def test_keys_match_nova_per_version_and_role(self):
        for version in ('2.15', '2.16'):
            for role, token in (('admin', 'admin:admin'), ('demo', 'demo:demo')):
                expected = capture_keys('show-%s-%s-c-up.json' % (version, role))
                self.assertEqual(expected, self.keys(token, version), (version, role))

    def test_2_1_has_neither_locked_nor_the_2_3_attributes(self):
        keys = self.keys('admin:admin', None)
        self.assertEqual(capture_keys('show-noheader-admin-c-stale.json'), keys)
        self.assertNotIn('locked', keys)
        self.assertNotIn('OS-EXT-SRV-ATTR:hostname', keys)
        self.assertIn('OS-EXT-SRV-ATTR:host', keys)

    def test_2_3_adds_attributes_and_2_9_adds_locked(self):
        keys_2_3 = self.keys('admin:admin', '2.3')
        self.assertIn('OS-EXT-SRV-ATTR:reservation_id', keys_2_3)
        self.assertNotIn('locked', keys_2_3)
        self.assertIn('locked', self.keys('admin:admin', '2.9'))

    def test_values(self):
        server = self.api.request('GET', '/v2.1/servers/' + self.uuid,
                                  version='2.16').json['server']
        self.assertEqual('ACTIVE', server['status'])
        self.assertEqual(0, server['progress'])
        self.assertEqual('instance-00000001', server['OS-EXT-SRV-ATTR:instance_name'])
        self.assertEqual(56, len(server['hostId']))
        self.assertEqual('http://127.0.0.1:8774/v2.1/servers/' + self.uuid,
                         server['links'][0]['href'])
        self.assertEqual('http://127.0.0.1:8774/servers/' + self.uuid,
                         server['links'][1]['href'])
        self.assertEqual('http://127.0.0.1:8774/flavors/1',
                         server['flavor']['links'][0]['href'])

    def test_project_scoped_path_keeps_the_project_in_links(self):
        resp = self.api.request('GET', '/v2.1/demo/servers/' + self.uuid, token='demo:demo')
        self.assertEqual(200, resp.status_int)
        self.assertEqual('http://127.0.0.1:8774/v2.1/demo/servers/' + self.uuid,
                         resp.json['server']['links'][0]['href'])
        resp = self.api.request('GET', '/v2.1/other/servers/' + self.uuid, token='demo:demo')
        self.assertEqual(400, resp.status_int)

    def test_same_host_same_project_same_host_id(self):
        other = nova_fixtures.add_server('c-up-2', host='h-up')
        alien = nova_fixtures.add_server('c-alien', host='h-up', project_id='alt')
        ids = {}
        for uuid in (self.uuid, other, alien):
            ids[uuid] = self.api.request('GET', '/v2.1/servers/' + uuid).json['server']['hostId']
        self.assertEqual(ids[self.uuid], ids[other])
        self.assertNotEqual(ids[self.uuid], ids[alien])


class HostStatusCasesTest(nova_fixtures.APITestCase):
    """The capture cases: one services query answers them all at once."""

    def setUp(self):
        super().setUp()
        add_service, add_server = nova_fixtures.add_service, nova_fixtures.add_server
        add_service('h-up')
        add_service('h-stale', seconds_ago=7200)
        add_service('h-forced', forced_down=True)
        add_service('h-disabled', disabled=True, disabled_reason='maintenance')
        add_service('h-forced-disabled', forced_down=True, disabled=True)
        add_service('h-reborn', forced_down=True, disabled=True, deleted=True)
        add_service('h-reborn')
        add_service('h-other-binary', binary='nova-scheduler')
        self.expected = {
            add_server('c-up', host='h-up'): 'UP',
            add_server('c-stale', host='h-stale'): 'UNKNOWN',
            add_server('c-forced', host='h-forced'): 'DOWN',
            add_server('c-disabled', host='h-disabled'): 'MAINTENANCE',
            add_server('c-forced-dis', host='h-forced-disabled'): 'DOWN',
            add_server('c-nohost-cell0'): '',
            add_server('c-nohost-build', vm_state='building', task_state='scheduling'): '',
            add_server('c-ghost', host='h-ghost'): '',
            add_server('c-reborn', host='h-reborn'): 'UP',
            add_server('c-not-compute', host='h-other-binary'): '',
        }

    def test_detail(self):
        servers = self.api.request('GET', '/v2.1/servers/detail?all_tenants=1',
                                   version='2.16').json['servers']
        self.assertEqual(self.expected, {s['id']: s['host_status'] for s in servers})

    def test_show(self):
        for uuid, status in self.expected.items():
            server = self.api.request('GET', '/v2.1/servers/' + uuid,
                                      version='2.16').json['server']
            self.assertEqual(status, server['host_status'], server['name'])

    def test_detail_at_2_15_has_no_key(self):
        servers = self.api.request('GET', '/v2.1/servers/detail?all_tenants=1',
                                   version='2.15').json['servers']
        self.assertFalse([s for s in servers if 'host_status' in s])
