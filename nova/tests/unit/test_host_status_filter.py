"""?host_status= on GET /servers and /servers/detail (ours, from 2.16)."""
import itertools

from nova.tests import fixtures as nova_fixtures

STATES = {'up': {}, 'down': {'forced_down': True}, 'maint': {'disabled': True},
          'stale': {'seconds_ago': 7200}, 'fenced': {'forced_down': True, 'disabled': True},
          'dead-disabled': {'disabled': True, 'seconds_ago': 7200}}
VALUES = ('UP', 'DOWN', 'MAINTENANCE', 'UNKNOWN')
DETAIL = '/v2.1/servers/detail?all_tenants=1'


class HostStatusFilterTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        for host, state in STATES.items():
            nova_fixtures.add_service(host, **state)
            for index in range(2):
                nova_fixtures.add_server('%s-%d' % (host, index), host=host,
                                         project_id=('demo', 'alt')[index])
        nova_fixtures.add_server('no-host')
        nova_fixtures.add_server('ghost', host='never-registered')
        unfiltered = self.get(DETAIL).json['servers']
        self.statuses = {s['name']: s['host_status'] for s in unfiltered}

    def get(self, path, token='admin:admin', version='2.16'):
        return self.api.request('GET', path, token=token, version=version)

    def names(self, path, **kwargs):
        resp = self.get(path, **kwargs)
        self.assertEqual(200, resp.status_int, resp.body)
        return sorted(s['name'] for s in resp.json['servers'])

    def test_every_set_of_values_keeps_exactly_its_servers(self):
        for size in range(1, len(VALUES) + 1):
            for chosen in itertools.combinations(VALUES, size):
                expected = sorted(n for n, s in self.statuses.items() if s in chosen)
                self.assertEqual(expected, self.names(DETAIL + '&host_status=' + ','.join(chosen)),
                                 chosen)
        self.assertEqual(sorted(self.statuses), self.names(DETAIL))

    def test_repeated_like_comma_separated_and_on_the_plain_list(self):
        repeated = self.names(DETAIL + '&host_status=UP&host_status=DOWN')
        self.assertEqual(self.names(DETAIL + '&host_status=UP,DOWN'), repeated)
        self.assertEqual(repeated, self.names(
            '/v2.1/servers?all_tenants=1&host_status=DOWN,UP'))

    def test_pages_walk_exactly_the_matching_servers(self):
        path = DETAIL + '&host_status=MAINTENANCE&limit=1'
        seen = []
        while path:
            body = self.get(path).json
            seen += [s['name'] for s in body['servers']]
            links = body.get('servers_links')
            path = links[0]['href'].split('8774', 1)[1] if links else None
        self.assertEqual(sorted(n for n, s in self.statuses.items() if s == 'MAINTENANCE'),
                         sorted(seen))
        self.assertEqual(len(seen), len(set(seen)))

    def test_combines_with_the_other_filters(self):
        self.assertEqual(['stale-0'], self.names(DETAIL + '&host_status=UNKNOWN&project_id=demo'))
        self.assertEqual(['maint-1'], self.names(DETAIL + '&host_status=MAINTENANCE&name=maint-1'))

    def test_a_dead_disabled_host_is_maintenance_as_nova_says(self):
        self.assertIn('dead-disabled-0', self.names(DETAIL + '&host_status=MAINTENANCE'))
        self.assertNotIn('dead-disabled-0', self.names(DETAIL + '&host_status=UNKNOWN'))

    def test_other_values_are_400(self):
        for value in ('', 'up', 'NONE', 'UP,', 'UP,BOGUS', 'NEEDS_MAINTENANCE'):
            resp = self.get(DETAIL + '&host_status=' + value)
            self.assertEqual(400, resp.status_int, value)
            self.assertIn('host_status', resp.json['badRequest']['message'])

    def test_ignored_below_2_16(self):
        for version in ('2.1', '2.15'):
            self.assertEqual(sorted(self.statuses),
                             self.names(DETAIL + '&host_status=BOGUS', version=version))

    def test_who_may_not_see_it_may_not_filter_by_it(self):
        for path in ('/v2.1/servers/detail?host_status=UP', '/v2.1/servers?host_status=UP'):
            resp = self.get(path, token='demo:demo')
            self.assertEqual(403, resp.status_int, path)
            self.assertIn('host_status', resp.json['forbidden']['message'])

    def test_unknown_only_callers_may_filter_by_unknown_alone(self):
        self.policy.set_rules({'os_compute_api:servers:show:host_status:unknown-only':
                               'rule:project_reader_or_admin'})
        self.assertEqual(['stale-0'], self.names('/v2.1/servers/detail?host_status=UNKNOWN',
                                                 token='demo:demo'))
        for value in ('UP', 'UNKNOWN,DOWN'):
            resp = self.get('/v2.1/servers/detail?host_status=' + value, token='demo:demo')
            self.assertEqual(403, resp.status_int, value)
