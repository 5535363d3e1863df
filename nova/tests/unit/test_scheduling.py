"""Where new servers go: the least loaded host that is enabled and up
(bodies, query strings and the no-valid-host case are in
nova/tests/functional/gabbits/servers-create.yaml and servers-list.yaml)."""

from nova.tests import fixtures as nova_fixtures

IMAGE = nova_fixtures.IMAGE


class SchedulingTest(nova_fixtures.APITestCase):

    def hosts_of_new_servers(self, count):
        resp = self.api.request('POST', '/v2.1/servers', body={'server': {
            'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1', 'min_count': count}})
        self.assertEqual(202, resp.status_int, resp.body)
        servers = self.api.request('GET', '/v2.1/servers/detail?all_tenants=1').json
        return sorted(s['OS-EXT-SRV-ATTR:host'] for s in servers['servers'])

    def test_spreads_by_load(self):
        nova_fixtures.add_service('h1')
        nova_fixtures.add_service('h2')
        nova_fixtures.add_server('existing', host='h1')
        # h2 first (empty), then alternating: the pre-existing server counts
        self.assertEqual(['h1', 'h1', 'h1', 'h2', 'h2'], self.hosts_of_new_servers(4))

    def test_only_enabled_up_hosts_qualify(self):
        nova_fixtures.add_service('h-up')
        nova_fixtures.add_service('h-stale', seconds_ago=7200)
        nova_fixtures.add_service('h-forced', forced_down=True)
        nova_fixtures.add_service('h-disabled', disabled=True)
        nova_fixtures.add_service('h-gone', deleted=True)
        self.assertEqual(['h-up'] * 3, self.hosts_of_new_servers(3))
