"""Bodies and query strings: bad input is a clear 4xx and changes nothing."""

from nova.tests import fixtures as nova_fixtures

IMAGE = nova_fixtures.IMAGE


class CreateTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h1')

    def create(self, server, token='demo:demo', **top):
        return self.api.request('POST', '/v2.1/servers', token=token,
                                body=dict({'server': server}, **top))

    def count(self):
        return len(self.api.request('GET', '/v2.1/servers?all_tenants=1').json['servers'])

    def assertRejected(self, resp, code=400):
        self.assertEqual(code, resp.status_int, resp.body)
        self.assertEqual({'badRequest': 400, 'forbidden': 403, 'badMediaType': 415}
                         [list(resp.json)[0]], code)
        self.assertEqual(0, self.count())

    def test_create_returns_202_with_nova_keys(self):
        resp = self.create({'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1',
                            'metadata': {'k': 'v'}, 'key_name': 'mykey',
                            'config_drive': True, 'accessIPv4': '10.0.0.1',
                            'security_groups': [{'name': 'web'}]},
                           **{'os:scheduler_hints': {'group': 'x'}})
        self.assertEqual(202, resp.status_int, resp.body)
        server = resp.json['server']
        self.assertEqual({'id', 'links', 'OS-DCF:diskConfig', 'security_groups', 'adminPass'},
                         set(server))
        self.assertEqual([{'name': 'web'}], server['security_groups'])
        shown = self.api.request('GET', '/v2.1/servers/' + server['id']).json['server']
        self.assertEqual('BUILD', shown['status'])
        self.assertEqual({'k': 'v'}, shown['metadata'])
        self.assertEqual('True', shown['config_drive'])
        self.assertEqual('10.0.0.1', shown['accessIPv4'])
        self.assertEqual('h1', shown['OS-EXT-SRV-ATTR:host'])

    def test_flavor_ref_as_int_and_image_as_url(self):
        resp = self.create({'name': 'vm', 'flavorRef': 2,
                            'imageRef': 'http://glance/v2/images/' + IMAGE})
        self.assertEqual(202, resp.status_int, resp.body)

    def test_min_max_count_names_like_nova(self):
        resp = self.create({'name': 'web', 'imageRef': IMAGE, 'flavorRef': '1',
                            'min_count': 2, 'max_count': '3',
                            'return_reservation_id': True})
        self.assertEqual(202, resp.status_int, resp.body)
        self.assertTrue(resp.json['reservation_id'].startswith('r-'))
        names = sorted(s['name'] for s in self.api.request(
            'GET', '/v2.1/servers?all_tenants=1').json['servers'])
        self.assertEqual(['web-1', 'web-2', 'web-3'], names)

    def test_unknown_key_is_400(self):
        self.assertRejected(self.create({'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1',
                                         'colour': 'blue'}))

    def test_unknown_top_level_key_is_400(self):
        self.assertRejected(self.create({'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1'},
                                        extra=1))

    def test_missing_or_bad_fields_are_400(self):
        bad = [
            {'imageRef': IMAGE, 'flavorRef': '1'},
            {'name': '', 'imageRef': IMAGE, 'flavorRef': '1'},
            {'name': ' padded ', 'imageRef': IMAGE, 'flavorRef': '1'},
            {'name': 'vm', 'imageRef': IMAGE},
            {'name': 'vm', 'flavorRef': '1'},
            {'name': 'vm', 'imageRef': 'not-a-uuid', 'flavorRef': '1'},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '999'},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1', 'min_count': 0},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1', 'min_count': 3,
             'max_count': 2},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1', 'metadata': {'k': 1}},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1', 'accessIPv4': 'nope'},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1', 'user_data': '***'},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1',
             'availability_zone': 'elsewhere'},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1',
             'OS-DCF:diskConfig': 'SOMETIMES'},
            {'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1',
             'max_count': 10 ** 12},
        ]
        for server in bad:
            self.assertRejected(self.create(server))

    def test_body_that_is_not_json(self):
        resp = self.api.request('POST', '/v2.1/servers', token='demo:demo',
                                headers={'Content-Type': 'application/json'})
        self.assertRejected(resp)
        req_app = self.api.app
        import webob
        req = webob.Request.blank('/v2.1/servers', method='POST',
                                  base_url='http://127.0.0.1:8774')
        req.headers['X-Auth-Token'] = 'demo:demo'
        req.body = b'{not json'
        req.content_type = 'application/json'
        self.assertRejected(req.get_response(req_app))
        req.content_type = 'application/xml'
        self.assertRejected(req.get_response(req_app), 415)

    def test_no_valid_host_is_error_with_fault(self):
        self.api.request('PUT', '/v2.1/os-services/disable',
                         body={'host': 'h1', 'binary': 'nova-compute'})
        resp = self.create({'name': 'vm', 'imageRef': IMAGE, 'flavorRef': '1'})
        self.assertEqual(202, resp.status_int)
        server = self.api.request('GET', '/v2.1/servers/' + resp.json['server']['id'],
                                  version='2.16').json['server']
        self.assertEqual('ERROR', server['status'])
        self.assertEqual('', server['host_status'])
        self.assertNotIn('progress', server)
        self.assertEqual(500, server['fault']['code'])
        self.assertIn('details', server['fault'])   # admins see the details
        owner = self.api.request('GET', '/v2.1/servers/' + server['id'],
                                 token='demo:demo').json['server']
        self.assertNotIn('details', owner['fault'])


class ListQueryTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h1')
        self.uuids = [nova_fixtures.add_server('s%02d' % i, host='h1') for i in range(7)]

    def get(self, query, token='demo:demo'):
        return self.api.request('GET', '/v2.1/servers/detail' + query, token=token)

    def test_pagination_walks_every_server_once(self):
        seen, query = [], '?limit=3'
        while True:
            body = self.get(query).json
            seen.extend(s['name'] for s in body['servers'])
            links = body.get('servers_links')
            if not links:
                break
            self.assertEqual('next', links[0]['rel'])
            query = '?' + links[0]['href'].split('?', 1)[1]
        self.assertEqual(['s%02d' % i for i in reversed(range(7))], seen)

    def test_no_link_when_page_not_full(self):
        self.assertNotIn('servers_links', self.get('?limit=10').json)

    def test_sort_and_name_filter(self):
        names = [s['name'] for s in self.get('?sort_key=display_name&sort_dir=asc')
                 .json['servers']]
        self.assertEqual(sorted(names), names)
        names = [s['name'] for s in self.get('?name=s0[12]').json['servers']]
        self.assertEqual(['s02', 's01'], names)

    def test_status_filter(self):
        self.assertEqual(7, len(self.get('?status=ACTIVE').json['servers']))
        self.assertEqual(0, len(self.get('?status=ERROR').json['servers']))
        self.assertEqual(0, len(self.get('?status=NOT_A_STATUS').json['servers']))

    def test_unknown_parameters_are_ignored(self):
        self.assertEqual(7, len(self.get('?colour=blue').json['servers']))

    def test_malformed_values_are_400(self):
        for query in ('?limit=abc', '?limit=-1', '?marker=nope', '?sort_key=colour',
                      '?sort_dir=sideways', '?changes-since=yesterday',
                      '?all_tenants=maybe'):
            resp = self.get(query, token='admin:admin')
            self.assertEqual(400, resp.status_int, query)
            self.assertIn('badRequest', resp.json)

    def test_changes_since(self):
        self.assertEqual(7, len(self.get('?changes-since=2000-01-01T00:00:00Z')
                                .json['servers']))
        self.assertEqual(0, len(self.get('?changes-since=2999-01-01T00:00:00Z')
                                .json['servers']))

    def test_non_admin_sort_by_host_is_403(self):
        self.assertEqual(403, self.get('?sort_key=host').status_int)


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


class ListFiltersTest(nova_fixtures.APITestCase):
    """Every filter the api-ref documents narrows the list."""

    def setUp(self):
        super().setUp()
        add = nova_fixtures.add_server
        add('plain', host='h1')
        add('big', host='h1', flavor_id='3')
        add('other-image', host='h2', node='n2',
            image_ref='6c1d3f2a-9b0e-4c55-8a51-3f5f0c0a7e11')
        add('batch', host='h2', reservation_id='r-batch001')
        add('alt-user', host='h1', user_id='alt')

    def names(self, query, token='demo:demo'):
        resp = self.api.request('GET', '/v2.1/servers' + query, token=token)
        self.assertEqual(200, resp.status_int, resp.body)
        return sorted(s['name'] for s in resp.json['servers'])

    def test_user_filters(self):
        self.assertEqual(['big'], self.names('?flavor=3'))
        self.assertEqual(['other-image'],
                         self.names('?image=6c1d3f2a-9b0e-4c55-8a51-3f5f0c0a7e11'))
        self.assertEqual(['batch'], self.names('?reservation_id=r-batch001'))
        self.assertEqual(['alt-user'], self.names('?user_id=alt'))

    def test_admin_only_filters(self):
        self.assertEqual(['batch', 'other-image'],
                         self.names('?all_tenants=1&host=h2', token='admin:admin'))
        self.assertEqual(['other-image'],
                         self.names('?all_tenants=1&node=n2', token='admin:admin'))
        # dropped for a member: the whole project comes back
        self.assertEqual(5, len(self.names('?node=n2')))
