"""No input yields a 500: odd paths, query strings, bodies and headers get
4xx faults in Nova's JSON form (or a normal answer), and change nothing."""

from nova.tests import fixtures as nova_fixtures

IMAGE = nova_fixtures.IMAGE
FAULT_NAMES = {'badRequest', 'forbidden', 'itemNotFound', 'badMethod', 'badMediaType',
               'conflictingRequest', 'computeFault'}


class NoServerErrorTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h1')
        self.uuid = nova_fixtures.add_server('x', host='h1')

    def assertNoServerError(self, resp, what):
        self.assertLess(resp.status_int, 500, (what, resp.body))
        if resp.status_int >= 400:
            self.assertEqual(1, len(resp.json), what)
            self.assertIn(list(resp.json)[0], FAULT_NAMES, what)

    def servers(self):
        return self.api.request('GET', '/v2.1/servers/detail?all_tenants=1',
                                version='2.16').json['servers']

    def test_paths_and_query_strings(self):
        paths = [
            '/v2.1/servers?limit=99999999999999999999', '/v2.1/servers?marker=',
            '/v2.1/servers?limit=', '/v2.1/servers?name=(', '/v2.1/servers?name=%00',
            '/v2.1/servers?sort_key=uuid&sort_key=uuid&sort_dir=asc',
            '/v2.1/servers?sort_key=launched_at&sort_dir=asc&marker=' + self.uuid,
            '/v2.1/servers?sort_key=host&sort_key=task_state&sort_dir=asc&sort_dir=desc'
            '&marker=' + self.uuid,
            '/v2.1/servers/detail?changes-since=2020-13-45T00:00:00Z',
            '/v2.1/servers/' + 'a' * 5000, '/v2.1/servers?status=',
            '/v2.1/servers?all_tenants=', '/v2.1/servers/detail?all_tenants=1&project_id=',
            '/v2.1/flavors/%00', '/v2.1/os-services?host=%ff', '/v2.1/servers?name=%fe%ff',
            '/v2.1//servers', '/v2.1/servers/', '/v2.1/x/y/z', '/v3', '/v2.1/os-services/x/y',
        ]
        before = self.servers()
        for path in paths:
            for method in ('GET', 'DELETE', 'PUT', 'POST'):
                self.assertNoServerError(self.api.request(method, path, version='2.16'),
                                         (method, path))
        self.assertEqual(before, self.servers())

    def test_bodies(self):
        server = {'name': 'a', 'imageRef': IMAGE, 'flavorRef': '1'}
        bodies = [
            [], 'x', 1, {'server': []}, {'server': None}, dict(server),
            {'server': dict(server, name='a' * 300)},
            {'server': dict(server, flavorRef={})},
            {'server': dict(server, flavorRef='')},
            {'server': dict(server, min_count='1a')},
            {'server': dict(server, min_count='')},
            {'server': dict(server, max_count=1.5)},
            {'server': dict(server, metadata={'': 'x'})},
            {'server': dict(server, config_drive='maybe')},
            {'server': dict(server, networks='auto')},
            {'server': dict(server, name='a\u0000b')},
            {'host': 'h1', 'binary': 'nova-compute', 'forced_down': None},
            {'host': None, 'binary': 'nova-compute'},
        ]
        before = self.servers()
        for body in bodies:
            for path in ('/v2.1/os-services/disable', '/v2.1/os-services/force-down',
                         '/v2.1/os-services/disable-log-reason'):
                self.assertNoServerError(
                    self.api.request('PUT', path, version='2.16', body=body), (path, body))
            if body != {'server': server}:
                resp = self.api.request('POST', '/v2.1/servers', version='2.16', body=body)
                self.assertNoServerError(resp, body)
                self.assertEqual(400, resp.status_int, body)
        self.assertEqual(before, self.servers())
        service = self.api.request('GET', '/v2.1/os-services', version='2.16').json
        self.assertEqual(('enabled', False), (service['services'][0]['status'],
                                              service['services'][0]['forced_down']))
