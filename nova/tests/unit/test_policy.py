"""Who sees what: default policy, owner vs other project, the unknown-only rule."""

from nova.tests import fixtures as nova_fixtures

ADMIN, DEMO, OTHER = 'admin:admin', 'demo:demo', 'alt:alt'
HOST_STATUS = 'os_compute_api:servers:show:host_status'
UNKNOWN_ONLY = 'os_compute_api:servers:show:host_status:unknown-only'


class ServerPolicyTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h-up')
        nova_fixtures.add_service('h-stale', seconds_ago=7200)
        self.up = nova_fixtures.add_server('c-up', host='h-up')
        self.stale = nova_fixtures.add_server('c-stale', host='h-stale')

    def show(self, uuid, token, version='2.16'):
        return self.api.request('GET', '/v2.1/servers/' + uuid, token=token, version=version)

    def test_admin_sees_host_status(self):
        self.assertEqual('UP', self.show(self.up, ADMIN).json['server']['host_status'])
        self.assertEqual('UNKNOWN', self.show(self.stale, ADMIN).json['server']['host_status'])

    def test_owner_does_not_by_default(self):
        resp = self.show(self.up, DEMO)
        self.assertEqual(200, resp.status_int)
        self.assertNotIn('host_status', resp.json['server'])
        self.assertNotIn('OS-EXT-SRV-ATTR:host', resp.json['server'])

    def test_other_project_gets_404(self):
        resp = self.show(self.up, OTHER)
        self.assertEqual(404, resp.status_int)
        self.assertEqual({'itemNotFound': {'code': 404, 'message': 'Instance %s could not '
                                           'be found.' % self.up}}, resp.json)

    def test_admin_can_see_any_project(self):
        self.assertEqual(200, self.show(self.up, ADMIN).status_int)

    def test_granting_the_rule_to_members(self):
        self.policy.set_rules({HOST_STATUS: 'rule:project_reader_or_admin'})
        self.assertEqual('UP', self.show(self.up, DEMO).json['server']['host_status'])
        # still not another project's member
        self.assertEqual(404, self.show(self.up, OTHER).status_int)

    def test_unknown_only_shows_the_key_only_when_unknown(self):
        self.policy.set_rules({UNKNOWN_ONLY: 'rule:project_reader_or_admin'})
        self.assertNotIn('host_status', self.show(self.up, DEMO).json['server'])
        self.assertEqual('UNKNOWN', self.show(self.stale, DEMO).json['server']['host_status'])
        detail = self.api.request('GET', '/v2.1/servers/detail', token=DEMO,
                                  version='2.16').json['servers']
        self.assertEqual({'c-stale': 'UNKNOWN', 'c-up': None},
                         {s['name']: s.get('host_status') for s in detail})

    def test_unknown_only_is_ignored_when_the_full_rule_allows(self):
        self.policy.set_rules({UNKNOWN_ONLY: '!'})
        self.assertEqual('UP', self.show(self.up, ADMIN).json['server']['host_status'])

    def test_non_admin_all_tenants_is_403(self):
        resp = self.api.request('GET', '/v2.1/servers/detail?all_tenants=1', token=DEMO,
                                version='2.16')
        self.assertEqual(403, resp.status_int)
        self.assertEqual("Policy doesn't allow os_compute_api:servers:detail:"
                         "get_all_tenants to be performed.", resp.json['forbidden']['message'])

    def test_non_admin_host_filter_is_dropped(self):
        resp = self.api.request('GET', '/v2.1/servers?host=h-stale', token=DEMO)
        self.assertEqual({'c-up', 'c-stale'}, {s['name'] for s in resp.json['servers']})
        resp = self.api.request('GET', '/v2.1/servers?host=h-stale&all_tenants=1')
        self.assertEqual(['c-stale'], [s['name'] for s in resp.json['servers']])

    def test_services_are_admin_only(self):
        resp = self.api.request('GET', '/v2.1/os-services', token=DEMO)
        self.assertEqual(403, resp.status_int)
        resp = self.api.request('PUT', '/v2.1/os-services/disable', token=DEMO,
                                body={'host': 'h-up', 'binary': 'nova-compute'})
        self.assertEqual(403, resp.status_int)
        self.assertEqual('UP', self.show(self.up, ADMIN).json['server']['host_status'])
