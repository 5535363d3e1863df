"""A NUL character in any value of a URL (every path parameter and query
parameter the OpenAPI document lists) is answered as a value that
matches nothing, on every database: PostgreSQL cannot bind one, and
answered 500 before (nova/db/nul.py)."""
import re
import urllib.parse

from nova.api.openstack import openapi
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

VERSIONS = ('2.1', 'latest')
TOKENS = ('admin:admin', 'demo:demo')     # the server below is demo's
WITH_NUL = 'a\x00b'
NO_MATCH = 'a-b'     # matches nothing either, and binds everywhere


def _requests():
    """(method, path template with {value}) of every route and query
    parameter: the value in each path parameter, or in one query
    parameter of a GET."""
    for template, operations in openapi.document()['paths'].items():
        for method, operation in operations.items():
            if method not in ('get', 'delete'):
                continue   # a body is validated first: refused alike
            if '{' in template:
                yield method.upper(), re.sub(r'\{[^}]+\}', '{value}', template)
            if method == 'get':
                plain = re.sub(r'\{[^}]+\}', 'a', template)
                for parameter in operation.get('parameters', ()):
                    if parameter.get('in') == 'query':
                        yield 'GET', '%s?%s={value}' % (plain, parameter['name'])


class _NulValues:

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Policy())
        self.api = nova_fixtures.API()
        nova_fixtures.add_service('h1')
        nova_fixtures.add_server('vm1', host='h1', tags=('web',))

    def _answer(self, method, template, value, version, token):
        path = '/v2.1' + template.format(value=urllib.parse.quote(value, safe=''))
        resp = self.api.request(method, path, token=token, version=version)
        body = resp.json if resp.content_type == 'application/json' and resp.body else None
        if resp.status_int >= 300:
            body = list(body or ())     # the fault's kind; its message names the value
        return resp.status_int, body

    def test_a_nul_matches_nothing_and_is_never_a_server_error(self):
        problems = []
        for method, template in _requests():
            for version in VERSIONS:
                for token in TOKENS:
                    with_nul = self._answer(method, template, WITH_NUL, version, token)
                    expected = self._answer(method, template, NO_MATCH, version, token)
                    if with_nul[0] >= 500 or with_nul != expected:
                        problems.append('%s %s at %s as %s: %s, expected %s' % (
                            method, template, version, token, with_nul, expected))
        self.assertEqual([], problems)

    def test_tag_filters_with_a_nul(self):
        # no server carries a tag holding a NUL: "all of" and "any of" it
        # match nothing, "not all of" and "none of" it everything
        listed = {}
        for param in ('tags', 'tags-any', 'not-tags', 'not-tags-any'):
            resp = self.api.request('GET', '/v2.1/servers?%s=web,a%%00b' % param,
                                    token='demo:demo', version='2.26')
            self.assertEqual(200, resp.status_int, resp.body)
            listed[param] = [s['name'] for s in resp.json['servers']]
        self.assertEqual({'tags': [], 'tags-any': ['vm1'], 'not-tags': ['vm1'],
                          'not-tags-any': []}, listed)


    def test_a_nul_in_what_would_be_stored_is_refused(self):
        # fields Nova's schemas let a NUL through (Nova answers 500 on
        # PostgreSQL): 400 on every database, and nothing changes
        uuid = nova_fixtures.add_server('vm2', host='h1')
        server = {'name': 'x', 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1',
                  'networks': 'none', 'tags': [WITH_NUL]}
        for method, path, body, version in (
                ('POST', '/servers', {'server': server}, '2.52'),
                ('PUT', '/servers/%s/tags' % uuid, {'tags': [WITH_NUL]}, '2.26'),
                ('PUT', '/servers/%s/tags/a%%00b' % uuid, None, '2.26'),
                ('POST', '/servers/%s/action' % uuid, {'lock': {'locked_reason': WITH_NUL}},
                 '2.73'),
                ('POST', '/os-keypairs', {'keypair': {'name': 'k', 'user_id': WITH_NUL}},
                 '2.10'),
                ('PUT', '/os-services/disable-log-reason', {
                    'host': 'h1', 'binary': 'nova-compute', 'disabled_reason': WITH_NUL},
                 '2.1'),
                ('POST', '/flavors/1/action', {'addTenantAccess': {'tenant': WITH_NUL}},
                 '2.1'),
                ('POST', '/flavors/1/action', {'removeTenantAccess': {'tenant': WITH_NUL}},
                 '2.1')):
            resp = self.api.request(method, '/v2.1' + path, body=body, version=version)
            self.assertEqual((400, ['badRequest']), (resp.status_int, list(resp.json)),
                             (method, path, resp.body))
        shown = self.api.request('GET', '/v2.1/servers/' + uuid, version='2.73').json['server']
        self.assertEqual(([], False), (shown['tags'], shown['locked']))
        listed = self.api.request('GET', '/v2.1/servers?all_tenants=1').json['servers']
        self.assertEqual(['vm1', 'vm2'], sorted(s['name'] for s in listed))
        service = self.api.request('GET', '/v2.1/os-services?host=h1').json['services'][0]
        self.assertEqual('enabled', service['status'])


class NulValuesSQLiteTest(_NulValues, backends.BackendTestCase):
    BACKEND = 'sqlite'


class NulValuesMySQLTest(_NulValues, backends.BackendTestCase):
    BACKEND = 'mysql'


class NulValuesPostgreSQLTest(_NulValues, backends.BackendTestCase):
    BACKEND = 'postgresql'
