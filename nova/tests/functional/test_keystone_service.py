"""The all-in-one behind a real Keystone 30 (keystone_server): its API under
keystonemiddleware validating Keystone's fernet tokens as the ``nova``
service user, the compute endpoint in Keystone's catalog, and
openstackclient with password auth finding it there. One Keystone and one
all-in-one for the class.

(test_keystone.py checks the same middleware in-process, against
keystonemiddleware's own token fixture.)"""
import json
import os
import subprocess

from nova.tests.functional import clients
from nova.tests.functional import fixtures as func
from nova.tests.functional import keystone_server

ADMIN, DEMO = func.ADMIN, func.DEMO


class RealKeystoneTest(func.SharedAllInOneTestCase):

    @classmethod
    def setUpClass(cls):
        cls.keystone = keystone_server.Keystone()
        cls.keystone.setUp()
        try:
            cls.sessions = {ADMIN: cls.keystone.connect('admin', 'admin'),
                            DEMO: cls.keystone.connect('demo', 'demo')}
            cls.ALL_IN_ONE = dict(
                hosts=2, extra_config=cls.keystone.authtoken_config(),
                tokens={name: conn.session.get_token() for name, conn in cls.sessions.items()},
                ready_timeout=180)
            super().setUpClass()
        except BaseException:
            cls.keystone.cleanUp()
            raise

    @classmethod
    def seed_class(cls):
        cls.keystone.register('compute', 'nova', cls.nova.url + '/v2.1')
        cls.demo_project = cls.sessions[DEMO].session.get_project_id()
        cls.admin_project = cls.sessions[ADMIN].session.get_project_id()
        cls.mine = cls.nova.create_server('by-demo', token=DEMO)
        cls.admins = cls.nova.create_server('by-admin', token=ADMIN)

    @classmethod
    def tearDownClass(cls):
        try:
            super().tearDownClass()
        finally:
            cls.keystone.cleanUp()

    def test_flavor_access_asks_keystone_whether_a_project_exists(self):
        # as Nova: Keystone's 404 for the project is 400; a known project is
        # granted, and its member then sees the private flavor
        resp = self.nova.request('POST', '/v2.1/flavors', token=ADMIN, body={'flavor': {
            'name': 'ks-private', 'id': 'ks-private', 'ram': 64, 'vcpus': 1, 'disk': 0,
            'os-flavor-access:is_public': False}})
        self.assertEqual(200, resp.status, resp.raw)
        self.addCleanup(self.nova.request, 'DELETE', '/v2.1/flavors/ks-private', token=ADMIN)
        action = '/v2.1/flavors/ks-private/action'
        resp = self.nova.request('POST', action, token=ADMIN,
                                 body={'addTenantAccess': {'tenant': 'proj-zzz'}})
        self.assertEqual(400, resp.status, resp.raw)
        self.assertEqual('Project ID proj-zzz is not a valid project.',
                         resp.json['badRequest']['message'])
        self.assertEqual(404, self.nova.request('GET', '/v2.1/flavors/ks-private',
                                                token=DEMO).status)
        resp = self.nova.request('POST', action, token=ADMIN,
                                 body={'addTenantAccess': {'tenant': self.demo_project}})
        self.assertEqual(200, resp.status, resp.raw)
        self.assertEqual([self.demo_project],
                         [a['tenant_id'] for a in resp.json['flavor_access']])
        self.assertEqual(200, self.nova.request('GET', '/v2.1/flavors/ks-private',
                                                token=DEMO).status)
        # taking a grant away asks nobody: an unknown project has none (404)
        resp = self.nova.request('POST', action, token=ADMIN,
                                 body={'removeTenantAccess': {'tenant': 'proj-zzz'}})
        self.assertEqual(404, resp.status, resp.raw)

    def openstack(self, user, project, *args, ok=True):
        result = subprocess.run(
            [os.path.join(clients.BIN, 'openstack')] + list(args),
            env=self.keystone.cli_env(user, project), capture_output=True, text=True,
            timeout=120)
        if ok:
            self.assertEqual(0, result.returncode, result.stderr)
        return result

    def openstack_json(self, user, project, *args):
        return json.loads(self.openstack(user, project, *args, '-f', 'json').stdout)

    def test_token_identity_is_the_callers(self):
        server = self.nova.show(self.mine).json['server']
        self.assertEqual(self.demo_project, server['tenant_id'])
        self.assertEqual(self.keystone.admin.identity.find_user('demo').id,
                         server['user_id'])
        self.assertEqual('UP', server['host_status'])
        # the member sees their own server, without host_status, and not
        # the admin's
        mine = self.nova.show(self.mine, token=DEMO).json['server']
        self.assertNotIn('host_status', mine)
        self.assertEqual(404, self.nova.show(self.admins, token=DEMO).status)

    def test_no_token_or_a_bad_one_is_401_with_keystones_address(self):
        for token in (None, 'gAAAAAnot-a-fernet-token'):
            resp = self.nova.request('GET', '/v2.1/servers', token=token)
            self.assertEqual(401, resp.status)
            self.assertEqual('Keystone uri="%s"' % self.keystone.url,
                             resp.header('WWW-Authenticate'))

    def test_openstackclient_password_auth_through_the_catalog(self):
        rows = self.openstack_json('demo', 'demo', 'server', 'list', '--no-name-lookup')
        self.assertEqual(['by-demo'], [r['Name'] for r in rows])
        # --os-project-name on the command line rather than the environment
        rows = self.openstack_json('admin', 'unused', '--os-project-name', 'admin',
                                   'server', 'list', '--no-name-lookup')
        self.assertEqual(['by-admin'], [r['Name'] for r in rows])
        # --project NAME: openstackclient asks Keystone for the project's id
        rows = self.openstack_json('admin', 'admin', 'server', 'list', '--all-projects',
                                   '--project', 'demo', '--no-name-lookup', '--long')
        self.assertEqual(['by-demo'], [r['Name'] for r in rows])
        self.assertEqual('UP', rows[0]['Host Status'])
        shown = self.openstack_json('admin', 'admin', 'server', 'show', self.mine)
        self.assertEqual('UP', shown['host_status'])
        services = self.openstack_json('admin', 'admin', 'compute', 'service', 'list')
        self.assertEqual(set(self.nova.host_names), {s['Host'] for s in services})

    def test_member_gets_403_on_admin_actions(self):
        for args, rule in ((('compute', 'service', 'list'), 'os-services:list'),
                           (('server', 'list', '--all-projects'),
                            'servers:detail:get_all_tenants')):
            result = self.openstack('demo', 'demo', *args, ok=False)
            self.assertNotEqual(0, result.returncode, args)
            self.assertIn('403', result.stderr, args)
            self.assertIn("Policy doesn't allow os_compute_api:%s" % rule, result.stderr)
        result = self.openstack('demo', 'demo', 'compute', 'service', 'set', '--disable',
                                'host-1', 'nova-compute', ok=False)
        self.assertNotEqual(0, result.returncode)
        # at 2.53 openstackclient first looks the service's UUID up: refused
        self.assertIn("Policy doesn't allow os_compute_api:os-services:list", result.stderr)
        resp = self.nova.service_action('disable', 'host-1', token=DEMO)
        self.assertEqual((403, {'forbidden': {
            'code': 403,
            'message': "Policy doesn't allow os_compute_api:os-services:update to be "
                       "performed."}}), (resp.status, resp.json))
        # and nothing changed
        services = self.nova.services()
        self.assertEqual({'enabled'}, {s['status'] for s in services})
