"""Nova's AggregateInstanceExtraSpecsFilter: its operators, which extra
specs it reads, and new servers kept to the hosts whose aggregates match
once [filter_scheduler] enabled_filters names it (off by default, as in
Nova)."""
import testtools

from nova.compute import aggregate_filter as f
from nova import conf
from nova.tests import fixtures as nova_fixtures


class AcceptsTest(testtools.TestCase):

    def test_operators(self):
        cases = [
            ('true', 'true', True), ('true', 'false', False),
            ('8', '= 4', True), ('2', '= 4', False), ('4', '== 4.0', True),
            ('4', '!= 4', False), ('5', '>= 5', True), ('6', '<= 5', False),
            ('abc', 's== abc', True), ('abc', 's!= abc', False), ('abc', 's< abd', True),
            ('b', 's<= a', False), ('b', 's> a', True), ('a', 's>= b', False),
            ('ssd,nvme', '<in> nvme', True), ('ssd', '<in> nvme', False),
            ('ssd nvme', '<all-in> ssd nvme', True), ('ssd', '<all-in> ssd nvme', False),
            ('b', '<or> a <or> b', True), ('c', '<or> a <or> b', False),
            ('many', '= 4', False),          # not a number: no match, no error
            ('x', '<in>', False),            # an operator without operand
        ]
        for value, spec, expected in cases:
            self.assertEqual(expected, f.accepts(value, spec), (value, spec))

    def test_requirements_read_unscoped_and_own_scope_only(self):
        self.assertEqual({'ssd': 'true', 'evacuable': 'true'}, f.requirements({
            'ssd': 'true', 'aggregate_instance_extra_specs:evacuable': 'true',
            'hw:cpu_policy': 'dedicated', 'capabilities:cpu_arch': 'x86_64'}))

    def test_a_host_passes_when_one_aggregate_matches_each_key(self):
        wanted = {'ssd': 'true', 'tier': '<or> gold <or> silver'}
        self.assertTrue(f.passes([{'ssd': 'true'}, {'tier': 'gold'}], wanted))
        self.assertFalse(f.passes([{'ssd': 'true'}], wanted))
        self.assertFalse(f.passes([], wanted))
        self.assertTrue(f.passes([], {}))


class SchedulingByAggregateTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        for host in ('h1', 'h2'):
            nova_fixtures.add_service(host)
        agg = self.api.request('POST', '/v2.1/os-aggregates',
                               body={'aggregate': {'name': 'ssd'}}).json['aggregate']['id']
        for body in ({'add_host': {'host': 'h2'}},
                     {'set_metadata': {'metadata': {'ssd': 'true'}}}):
            self.assertEqual(200, self.api.request(
                'POST', '/v2.1/os-aggregates/%d/action' % agg, body=body).status_int)
        self.assertEqual(200, self.api.request(
            'POST', '/v2.1/flavors/1/os-extra_specs',
            body={'extra_specs': {'aggregate_instance_extra_specs:ssd': 'true'}}).status_int)

    def hosts_of_new_servers(self, count):
        resp = self.api.request('POST', '/v2.1/servers', body={'server': {
            'name': 'vm', 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1',
            'min_count': count}})
        self.assertEqual(202, resp.status_int, resp.body)
        servers = self.api.request('GET', '/v2.1/servers/detail?all_tenants=1').json
        return sorted(s['OS-EXT-SRV-ATTR:host'] for s in servers['servers'])

    def test_off_by_default(self):
        self.assertEqual(['h1', 'h2'], self.hosts_of_new_servers(2))

    def test_on_only_matching_hosts(self):
        conf.CONF.set_override('enabled_filters', [f.NAME], group='filter_scheduler')
        self.addCleanup(conf.CONF.clear_override, 'enabled_filters', group='filter_scheduler')
        self.assertEqual(['h2', 'h2'], self.hosts_of_new_servers(2))
