"""Flavor management, flavor access and keypairs through the real clients
over HTTP against the all-in-one: python-novaclient (Python API and the
``nova`` command line), python-openstackclient and openstacksdk."""
import os
import subprocess
import tempfile

from novaclient import exceptions as nova_exc
from openstack import exceptions as sdk_exc
from oslo_utils import uuidutils

from nova.tests.functional import cases
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO


def _public_key_file(test):
    """An ssh public key made by ssh-keygen, and its MD5 fingerprint as
    ssh-keygen prints it."""
    directory = test.useFixture_tempdir()
    path = os.path.join(directory, 'key')
    subprocess.run(['ssh-keygen', '-q', '-t', 'rsa', '-b', '2048', '-N', '', '-f', path],
                   check=True)
    listed = subprocess.run(['ssh-keygen', '-l', '-E', 'md5', '-f', path + '.pub'],
                            check=True, capture_output=True, text=True).stdout
    return path + '.pub', listed.split()[1][len('MD5:'):]


class FlavorsKeypairsClientsTest(cases.SeededTestCase):

    ALL_IN_ONE = dict(hosts=1, report_interval=1, service_down_time=20)

    @classmethod
    def seed_class(cls):
        cls.ids = {}

    def useFixture_tempdir(self):
        directory = tempfile.mkdtemp()
        self.addCleanup(subprocess.run, ['rm', '-rf', directory])
        return directory

    def cli(self, token, version, *args, ok=True):
        return self.run_cli('nova', token, version, *args, ok=ok)

    def osc(self, token, version, *args, ok=True):
        return self.run_cli('openstack', token, version, *args, ok=ok)

    def _forget_keypairs(self, *names):
        """Cleanup: the test's keypairs of demo, whatever became of them."""
        for name in names:
            self.nova.request('DELETE', '/v2.1/os-keypairs/' + name, token=DEMO)

    # -------------------------------------------------------------- novaclient

    def test_novaclient_python_api_flavors_and_access(self):
        admin = clients.novaclient(self.nova, ADMIN, '2.latest')
        flavor = admin.flavors.create('nc-private', 256, 1, 1, flavorid='auto',
                                      is_public=False)
        self.assertTrue(uuidutils.is_uuid_like(flavor.id))
        self.assertFalse(flavor.is_public)
        demo = clients.novaclient(self.nova, DEMO, '2.latest')
        self.assertRaises(nova_exc.NotFound, demo.flavors.get, flavor.id)
        access = admin.flavor_access.add_tenant_access(flavor, 'demo')
        self.assertEqual([('demo', flavor.id)], [(a.tenant_id, a.flavor_id) for a in access])
        self.assertEqual('nc-private', demo.flavors.get(flavor.id).name)
        self.assertIn(flavor.id, [f.id for f in demo.flavors.list()])
        self.assertRaises(nova_exc.Conflict, admin.flavor_access.add_tenant_access,
                          flavor, 'demo')
        self.assertEqual(['demo'], [a.tenant_id for a in admin.flavor_access.list(
            flavor=flavor)])
        self.assertRaises(nova_exc.Forbidden, demo.flavor_access.list, flavor=flavor)
        admin.flavor_access.remove_tenant_access(flavor, 'demo')
        self.assertRaises(nova_exc.NotFound, admin.flavor_access.remove_tenant_access,
                          flavor, 'demo')
        self.assertRaises(nova_exc.Forbidden, demo.flavors.create, 'x', 1, 1, 1)
        self.assertRaises(nova_exc.Conflict, admin.flavors.create, 'nc-private', 1, 1, 1)
        admin.flavors.delete(flavor)
        self.assertRaises(nova_exc.NotFound, admin.flavors.get, flavor.id)

    def test_novaclient_python_api_flavor_description(self):
        admin = clients.novaclient(self.nova, ADMIN, '2.latest')
        flavor = admin.flavors.create('nc-described', 256, 1, 1, flavorid='nc-described',
                                      description='first')
        self.addCleanup(self.nova.request, 'DELETE', '/v2.1/flavors/nc-described')
        self.assertEqual(('first', {}), (flavor.description, flavor.extra_specs))
        flavor.set_keys({'hw:cpu_policy': 'shared'})
        updated = admin.flavors.update(flavor, 'second')
        self.assertEqual(('second', {'hw:cpu_policy': 'shared'}),
                         (updated.description, updated.extra_specs))
        demo = clients.novaclient(self.nova, DEMO, '2.latest')
        self.assertRaises(nova_exc.Forbidden, demo.flavors.update, flavor, 'x')
        shown = demo.flavors.get('nc-described')
        self.assertEqual(('second', {'hw:cpu_policy': 'shared'}),
                         (shown.description, shown.extra_specs))

    def test_nova_cli_flavor_create_access_delete(self):
        done = self.cli(ADMIN, '2.latest', 'flavor-create', '--is-public', 'false',
                        'cli-private', 'auto', '256', '1', '1')
        [row] = clients.table(done.stdout)
        self.assertEqual(('cli-private', '256', 'False'),
                         (row['Name'], row['Memory_MiB'], row['Is_Public']))
        flavor_id = row['ID']
        self.assertTrue(uuidutils.is_uuid_like(flavor_id))
        done = self.cli(ADMIN, '2.latest', 'flavor-access-add', flavor_id, 'demo')
        self.assertEqual([{'Flavor_ID': flavor_id, 'Tenant_ID': 'demo'}],
                         clients.table(done.stdout))
        done = self.cli(ADMIN, '2.latest', 'flavor-access-list', '--flavor', flavor_id)
        self.assertEqual(['demo'], [r['Tenant_ID'] for r in clients.table(done.stdout)])
        done = self.cli(ADMIN, '2.latest', 'flavor-access-add', flavor_id, 'demo', ok=False)
        self.assertIn('Flavor access already exists', done.stderr)
        self.cli(ADMIN, '2.latest', 'flavor-access-remove', flavor_id, 'demo')
        self.cli(ADMIN, '2.latest', 'flavor-delete', flavor_id)
        done = self.cli(ADMIN, '2.latest', 'flavor-show', flavor_id, ok=False)
        self.assertIn('No flavor with a name or ID', done.stderr)

    def test_novaclient_python_api_keypairs_and_server_key_name(self):
        path, fingerprint = _public_key_file(self)
        with open(path) as f:
            public_key = f.read()
        for version in ('2.1', '2.2', '2.10', '2.35', '2.latest'):
            demo = clients.novaclient(self.nova, DEMO, version)
            generated = demo.keypairs.create('nc-gen')
            self.assertTrue(generated.private_key.startswith('-----BEGIN RSA PRIVATE KEY'))
            imported = demo.keypairs.create('nc-imported', public_key=public_key)
            self.assertEqual(fingerprint, imported.fingerprint)
            self.assertRaises(nova_exc.Conflict, demo.keypairs.create, 'nc-gen')
            self.assertRaises(nova_exc.BadRequest, demo.keypairs.create, 'nc-bad',
                              public_key='ssh-rsa nonsense')
            self.assertLessEqual({'nc-gen', 'nc-imported'}, {k.name for k in demo.keypairs.list()})
            shown = demo.keypairs.get('nc-imported')
            self.assertEqual((public_key, 'demo'), (shown.public_key, shown.user_id))
            self.assertFalse(hasattr(shown, 'private_key'))
            self.addCleanup(self._forget_keypairs, 'nc-gen', 'nc-imported')
            nics = {'nics': 'none'} if version == '2.latest' else {}
            server = demo.servers.create('with-key', func.IMAGE, '1', key_name='nc-imported',
                                         **nics)
            self.assertEqual('nc-imported', demo.servers.get(server.id).key_name)
            self.assertRaises(nova_exc.BadRequest, demo.servers.create, 'no-key', func.IMAGE,
                              '1', key_name='nope', **nics)
            demo.servers.delete(server)
            demo.keypairs.delete('nc-gen')
            demo.keypairs.delete('nc-imported')
            self.assertFalse({'nc-gen', 'nc-imported'} & {k.name for k in demo.keypairs.list()})

    def test_nova_cli_keypairs(self):
        path, fingerprint = _public_key_file(self)
        self.addCleanup(self._forget_keypairs, 'cli-gen', 'cli-imported')
        done = self.cli(DEMO, '2.latest', 'keypair-add', 'cli-gen')
        self.assertIn('-----BEGIN RSA PRIVATE KEY-----', done.stdout)
        self.cli(DEMO, '2.latest', 'keypair-add', '--pub-key', path, 'cli-imported')
        done = self.cli(DEMO, '2.latest', 'keypair-list')
        rows = {r['Name']: r for r in clients.table(done.stdout)}
        self.assertLessEqual({'cli-gen', 'cli-imported'}, set(rows))
        self.assertEqual(fingerprint, rows['cli-imported']['Fingerprint'])
        self.assertEqual('ssh', rows['cli-imported']['Type'])
        done = self.cli(DEMO, '2.latest', 'keypair-add', 'cli-gen', ok=False)
        self.assertIn("Key pair 'cli-gen' already exists.", done.stderr)
        done = self.cli(DEMO, '2.latest', 'keypair-list', '--user', 'other', ok=False)
        self.assertIn('os-keypairs:index', done.stderr)
        self.cli(DEMO, '2.latest', 'keypair-delete', 'cli-gen')
        self.cli(DEMO, '2.latest', 'keypair-delete', 'cli-imported')
        done = self.cli(DEMO, '2.latest', 'keypair-list')
        self.assertFalse({'cli-gen', 'cli-imported'} & {r['Name'] for r in clients.table(
            done.stdout)})

    # -------------------------------------------------------- openstackclient

    def test_openstack_flavor_create_and_delete(self):
        done = self.osc(ADMIN, '2.latest', 'flavor', 'create', '--ram', '128', '--disk', '1',
                        '--vcpus', '1', '--private', '--id', 'osc-1', 'osc-private',
                        '-f', 'value', '-c', 'id', '-c', 'os-flavor-access:is_public')
        self.assertEqual(['osc-1', 'False'], done.stdout.split())
        done = self.osc(ADMIN, '2.latest', 'flavor', 'create', '--ram', '128', '--disk', '1',
                        '--vcpus', '1', '--id', 'osc-1', 'osc-again', ok=False)
        self.assertIn('Flavor with ID osc-1 already exists', done.stderr)
        done = self.osc(DEMO, '2.latest', 'flavor', 'create', '--ram', '128', '--disk', '1',
                        '--vcpus', '1', 'osc-member', ok=False)
        self.assertIn('os-flavor-manage:create', done.stderr)
        self.osc(ADMIN, '2.latest', 'flavor', 'delete', 'osc-1')
        self.osc(ADMIN, '2.latest', 'flavor', 'show', 'osc-1', ok=False)

    def test_openstack_flavor_description(self):
        self.addCleanup(self.nova.request, 'DELETE', '/v2.1/flavors/osc-d')
        done = self.osc(ADMIN, '2.55', 'flavor', 'create', '--ram', '128', '--disk', '1',
                        '--vcpus', '1', '--id', 'osc-d', '--description', 'first', 'osc-d',
                        '-f', 'value', '-c', 'description')
        self.assertEqual('first', done.stdout.strip())
        self.osc(ADMIN, '2.55', 'flavor', 'set', '--description', 'second', 'osc-d')
        done = self.osc(ADMIN, '2.61', 'flavor', 'show', 'osc-d', '-f', 'value',
                        '-c', 'description')
        self.assertEqual('second', done.stdout.strip())

    def test_openstack_keypair_create_list_delete(self):
        path, fingerprint = _public_key_file(self)
        self.addCleanup(self._forget_keypairs, 'osc-gen', 'osc-imported')
        done = self.osc(DEMO, '2.latest', 'keypair', 'create', 'osc-gen')
        self.assertIn('PRIVATE KEY-----', done.stdout)
        self.osc(DEMO, '2.latest', 'keypair', 'create', '--public-key', path, 'osc-imported')
        done = self.osc(DEMO, '2.latest', 'keypair', 'list', '-f', 'value',
                        '-c', 'Name', '-c', 'Fingerprint')
        rows = dict(line.split() for line in done.stdout.splitlines())
        self.assertLessEqual({'osc-gen', 'osc-imported'}, set(rows))
        self.assertEqual(fingerprint, rows['osc-imported'])
        done = self.osc(DEMO, '2.latest', 'keypair', 'create', '--public-key', path,
                        'osc-imported', ok=False)
        self.assertIn("Key pair 'osc-imported' already exists.", done.stderr)
        self.osc(DEMO, '2.latest', 'keypair', 'delete', 'osc-gen', 'osc-imported')
        done = self.osc(DEMO, '2.latest', 'keypair', 'list', '-f', 'value', '-c', 'Name')
        self.assertFalse({'osc-gen', 'osc-imported'} & set(done.stdout.split()))

    # ----------------------------------------------------------- openstacksdk

    def test_openstacksdk_flavors_access_and_keypairs(self):
        admin = clients.sdk(self.nova, ADMIN)
        flavor = admin.compute.create_flavor(name='sdk-private', ram=128, vcpus=1, disk=1,
                                             is_public=False)
        self.assertFalse(flavor.is_public)
        admin.compute.flavor_add_tenant_access(flavor, 'demo')
        self.assertEqual([{'flavor_id': flavor.id, 'tenant_id': 'demo'}],
                         admin.compute.get_flavor_access(flavor))
        demo = clients.sdk(self.nova, DEMO)
        self.assertEqual('sdk-private', demo.compute.get_flavor(flavor.id).name)
        admin.compute.flavor_remove_tenant_access(flavor, 'demo')
        self.assertRaises(sdk_exc.NotFoundException, demo.compute.get_flavor, flavor.id)
        admin.compute.delete_flavor(flavor)
        self.assertRaises(sdk_exc.NotFoundException, admin.compute.get_flavor, flavor.id)

        self.addCleanup(self._forget_keypairs, 'sdk-gen')
        keypair = demo.compute.create_keypair(name='sdk-gen')
        self.assertTrue(keypair.private_key)
        self.assertEqual('ssh', keypair.type)
        self.assertIn('sdk-gen', [k.name for k in demo.compute.keypairs()])
        self.assertEqual(keypair.fingerprint, demo.compute.get_keypair('sdk-gen').fingerprint)
        self.assertRaises(sdk_exc.ConflictException, demo.compute.create_keypair,
                          name='sdk-gen')
        demo.compute.delete_keypair('sdk-gen')
        self.assertRaises(sdk_exc.NotFoundException, demo.compute.get_keypair, 'sdk-gen')
