"""Behind keystonemiddleware's auth_token ([api] auth_strategy = keystone),
the user, project and roles of a Keystone token drive policy exactly as
noauth2's ``user:project`` tokens do.

The real WSGI app runs in this process (keystonemiddleware's
AuthTokenFixture answers token validation, as Keystone would); the same app
is also served over HTTP on a thread so that openstacksdk can be driven
through it with a Keystone token."""
import json
import threading
from wsgiref import simple_server

import testtools
from keystonemiddleware import auth_token
from keystonemiddleware import fixture as ksm_fixture

import nova.conf
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import fixtures as func
from nova.tests.functional import reference

CONF = nova.conf.CONF
WWW_AUTHENTICATE = 'http://127.0.0.1/identity'
# noauth2 token -> the Keystone token a real deployment would hand the same
# caller: (user_id, project_id, roles)
CALLERS = {
    'admin:admin': ('admin', 'admin', ['admin', 'member', 'reader']),
    'demo:demo': ('demo', 'demo', ['member', 'reader']),
    'alice:demo': ('alice', 'demo', ['member', 'reader']),
    'alt:alt': ('alt', 'alt', ['member', 'reader']),
}


class _QuietHandler(simple_server.WSGIRequestHandler):
    def log_message(self, *args):
        pass


class KeystoneTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        for group, opts in auth_token.list_opts():
            CONF.register_opts(opts, group=group)
        CONF.set_override('www_authenticate_uri', WWW_AUTHENTICATE, group='keystone_authtoken')
        self.addCleanup(CONF.clear_override, 'www_authenticate_uri', group='keystone_authtoken')
        self.useFixture(nova_fixtures.Database())
        self.useFixture(nova_fixtures.Policy())
        tokens = self.useFixture(ksm_fixture.AuthTokenFixture())
        for token, (user, project, roles) in CALLERS.items():
            tokens.add_token_data(token_id=self.keystone_token(token), user_id=user,
                                  user_name=user, project_id=project, project_name=project,
                                  role_list=roles)
        self.keystone = nova_fixtures.API('keystone')
        self.noauth2 = nova_fixtures.API('noauth2')
        nova_fixtures.add_service('up-host')
        nova_fixtures.add_service('fenced-host', forced_down=True, disabled=True)
        self.mine = nova_fixtures.add_server('mine', host='up-host')
        self.fenced = nova_fixtures.add_server('fenced', host='fenced-host')
        self.theirs = nova_fixtures.add_server('theirs', host='up-host', project_id='alt',
                                               user_id='alt')

    @staticmethod
    def keystone_token(noauth2_token):
        return 'ks-' + noauth2_token.replace(':', '-')

    def both(self, method, path, token, version='2.16', body=None):
        """(keystone response, noauth2 response) for the same caller."""
        ks = self.keystone.request(method, path, token=None, version=version, body=body,
                                   headers={'X-Auth-Token': self.keystone_token(token)})
        na = self.noauth2.request(method, path, token=token, version=version, body=body)
        return ks, na

    def assertSameAnswer(self, method, path, token, version='2.16'):
        ks, na = self.both(method, path, token, version)
        self.assertEqual((na.status_int, na.json), (ks.status_int, ks.json),
                         '%s %s as %s' % (method, path, token))
        return ks

    def test_policy_decisions_match_noauth2(self):
        paths = ['/v2.1/servers/' + self.mine, '/v2.1/servers/' + self.fenced,
                 '/v2.1/servers/' + self.theirs, '/v2.1/servers/detail',
                 '/v2.1/servers/detail?all_tenants=1', '/v2.1/servers?all_tenants=1',
                 '/v2.1/os-services', '/v2.1/demo/servers/detail',
                 '/v2.1/servers/detail?host=up-host']
        for token in CALLERS:
            for path in paths:
                for version in ('2.15', '2.16'):
                    self.assertSameAnswer('GET', path, token, version)

    def test_admin_sees_host_status_member_does_not(self):
        admin = self.assertSameAnswer('GET', '/v2.1/servers/' + self.fenced, 'admin:admin')
        self.assertEqual('DOWN', admin.json['server']['host_status'])
        detail = self.assertSameAnswer('GET', '/v2.1/servers/detail?all_tenants=1',
                                       'admin:admin').json['servers']
        self.assertEqual({'mine': 'UP', 'fenced': 'DOWN', 'theirs': 'UP'},
                         {s['name']: s['host_status'] for s in detail})
        for token in ('demo:demo', 'alice:demo'):
            member = self.assertSameAnswer('GET', '/v2.1/servers/' + self.mine, token)
            self.assertNotIn('host_status', member.json['server'])
            self.assertNotIn('OS-EXT-SRV-ATTR:host', member.json['server'])

    def test_member_cannot_see_another_projects_server(self):
        resp = self.assertSameAnswer('GET', '/v2.1/servers/' + self.theirs, 'demo:demo')
        self.assertEqual(404, resp.status_int)
        self.assertEqual({'itemNotFound': {'code': 404, 'message': 'Instance %s could not '
                                           'be found.' % self.theirs}}, resp.json)
        listed = self.assertSameAnswer('GET', '/v2.1/servers', 'demo:demo').json['servers']
        self.assertEqual({'mine', 'fenced'}, {s['name'] for s in listed})
        resp = self.assertSameAnswer('GET', '/v2.1/servers/detail?all_tenants=1', 'alt:alt')
        self.assertEqual(403, resp.status_int)

    def test_token_user_and_project_are_recorded_on_create(self):
        ks = self.keystone.request(
            'POST', '/v2.1/servers', token=None, headers={
                'X-Auth-Token': self.keystone_token('alice:demo')},
            body={'server': {'name': 'by-alice', 'imageRef': func.IMAGE, 'flavorRef': '1'}})
        self.assertEqual(202, ks.status_int, ks.body)
        server = self.noauth2.request('GET', '/v2.1/servers/' + ks.json['server']['id'],
                                      token='admin:admin').json['server']
        self.assertEqual(('alice', 'demo'), (server['user_id'], server['tenant_id']))

    def test_no_token_or_a_bad_token_is_401_in_keystonemiddleware_shape(self):
        capture = reference.load('err-no-token.json')
        for headers in ({}, {'X-Auth-Token': 'not-a-token'}):
            resp = self.keystone.request('GET', '/v2.1/servers/detail', token=None,
                                         version='2.16', headers=headers)
            self.assertEqual(capture['status'], resp.status_int)
            self.assertEqual(reference.body(capture), resp.json)
            self.assertEqual('Keystone uri="%s"' % WWW_AUTHENTICATE,
                             resp.headers['WWW-Authenticate'])
        # noauth2 answers a missing token the same way
        resp = self.noauth2.request('GET', '/v2.1/servers/detail', token=None)
        self.assertEqual((401, reference.body(capture)), (resp.status_int, resp.json))
        # version documents need no token behind Keystone either
        self.assertEqual(200, self.keystone.request('GET', '/', token=None).status_int)
        self.assertEqual(200, self.keystone.request('GET', '/v2.1/', token=None).status_int)

    def test_noauth2_only_documents_are_not_served_behind_keystone(self):
        for path in ('/identity/v3', '/image/v2/images', '/v2.1/v2/images'):
            self.assertEqual(200, self.noauth2.request('GET', path, token=None).status_int)
            resp = self.keystone.request('GET', path, token=None)
            self.assertNotEqual(200, resp.status_int, path)

    def test_openstacksdk_through_auth_token(self):
        server = simple_server.make_server('127.0.0.1', 0, self.keystone.app,
                                           handler_class=_QuietHandler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(thread.join, 5)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        url = 'http://127.0.0.1:%d' % server.server_port
        import openstack
        from openstack import exceptions as sdk_exc

        def connect(token):
            return openstack.connect(
                auth_type='admin_token', load_yaml_config=False, load_envvars=False,
                auth={'endpoint': url + '/v2.1', 'token': self.keystone_token(token)},
                compute_endpoint_override=url + '/v2.1')

        admin = connect('admin:admin').compute
        self.assertEqual('DOWN', admin.get_server(self.fenced).host_status)
        self.assertEqual({'mine': 'UP', 'fenced': 'DOWN', 'theirs': 'UP'},
                         {s.name: s.host_status
                          for s in admin.servers(details=True, all_projects=True)})
        demo = connect('demo:demo').compute
        self.assertIsNone(demo.get_server(self.mine).host_status)
        self.assertRaises(sdk_exc.NotFoundException, demo.get_server, self.theirs)
        self.assertRaises(sdk_exc.ForbiddenException, list, demo.services())
        # and the raw 401 over HTTP
        import urllib.error
        import urllib.request
        try:
            urllib.request.urlopen(url + '/v2.1/servers', timeout=10)
            self.fail('no 401')
        except urllib.error.HTTPError as err:
            self.assertEqual(401, err.code)
            self.assertEqual('Unauthorized', json.loads(err.read())['error']['title'])
