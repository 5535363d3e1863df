"""Host aggregates and flavor extra specs through the real clients, over
HTTP against the all-in-one (every host runs servers, see cases.py):
python-novaclient's Python API and ``nova aggregate-*`` / ``nova
flavor-key``, ``openstack aggregate ...`` / ``openstack flavor set
--property``, and openstacksdk. What the Python clients receive passes
tempest's schemas too (clients.session)."""
import json

from novaclient import exceptions as nova_exc
from openstack import exceptions as sdk_exc

from nova.tests.functional import cases
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO


class AggregateClientsTest(cases.SeededTestCase):

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def osc_json(self, token, version, *args):
        return json.loads(self.run_cli('openstack', token, version, *args, '-f', 'json').stdout)

    # --------------------------------------------------------- novaclient

    def test_novaclient_python_api(self):
        for version in ('2.1', '2.41', '2.latest'):
            admin = clients.novaclient(self.nova, ADMIN, version)
            name = 'nc-' + version
            aggregate = admin.aggregates.create(name, None)
            self.addCleanup(admin.aggregates.delete, aggregate.id)
            self.assertEqual(version != '2.1', hasattr(aggregate, 'uuid'))
            aggregate = admin.aggregates.add_host(aggregate.id, 'host-1')
            self.assertEqual(['host-1'], aggregate.hosts)
            aggregate = admin.aggregates.set_metadata(aggregate.id, {'evacuable': 'true'})
            self.assertEqual({'evacuable': 'true'}, aggregate.metadata)
            self.assertRaises(nova_exc.Conflict, admin.aggregates.add_host, aggregate.id,
                              'host-1')
            self.assertRaises(nova_exc.NotFound, admin.aggregates.add_host, aggregate.id,
                              'no-such-host')
            self.assertRaises(nova_exc.BadRequest, admin.aggregates.delete, aggregate.id)
            listed = {a.name: a for a in admin.aggregates.list()}
            self.assertEqual(['host-1'], listed[name].hosts)
            aggregate = admin.aggregates.remove_host(aggregate.id, 'host-1')
            self.assertEqual([], aggregate.hosts)
            self.assertRaises(nova_exc.Conflict, admin.aggregates.create, name, None)
        demo = clients.novaclient(self.nova, DEMO, '2.41')
        self.assertRaises(nova_exc.Forbidden, demo.aggregates.list)

    def test_nova_cli_aggregates(self):
        def nova(*args, ok=True):
            return self.run_cli('nova', ADMIN, '2.41', *args, ok=ok)

        self.addCleanup(clients.run, self.nova, 'nova', ['aggregate-delete', 'cli-agg2'], ADMIN)
        nova('aggregate-create', 'cli-agg', 'az-cli')
        done = nova('aggregate-add-host', 'cli-agg', 'host-1', ok=False)
        self.assertIn("availability zone of the host would change from 'None' to 'az-cli'",
                      done.stderr)
        nova('aggregate-update', 'cli-agg', '--name', 'cli-agg2')
        nova('aggregate-set-metadata', 'cli-agg2', 'evacuable=true',
             'instanceha:max_failures=2')
        shown = nova('aggregate-show', 'cli-agg2').stdout
        self.assertIn("'evacuable=true'", shown)
        listed = clients.table(nova('aggregate-list').stdout)
        self.assertIn(('cli-agg2', 'az-cli'), [(row['Name'], row['Availability Zone'])
                                               for row in listed])
        nova('aggregate-delete', 'cli-agg2')
        self.assertNotIn('cli-agg', nova('aggregate-list').stdout)

    def test_nova_cli_flavor_key(self):
        def nova(*args, ok=True):
            return self.run_cli('nova', ADMIN, '2.53', *args, ok=ok)

        self.addCleanup(clients.run, self.nova, 'nova',
                        ['flavor-key', 'm1.large', 'unset', 'evacuable'], ADMIN, '2.53')
        nova('flavor-key', 'm1.large', 'set', 'evacuable=true')
        shown = clients.properties(nova('flavor-show', 'm1.large').stdout)
        self.assertIn('"evacuable": "true"', shown['extra_specs'])
        nova('flavor-key', 'm1.large', 'unset', 'evacuable')
        shown = clients.properties(nova('flavor-show', 'm1.large').stdout)
        self.assertEqual('{}', shown['extra_specs'])
        done = self.run_cli('nova', DEMO, '2.53', 'flavor-key', 'm1.large', 'set', 'a=b',
                            ok=False)
        self.assertIn('os-flavor-extra-specs:create', done.stderr)

    # ----------------------------------------------------- openstackclient

    def test_openstack_aggregate(self):
        self.addCleanup(clients.run, self.nova, 'openstack', ['aggregate', 'delete', 'osc-agg'],
                        ADMIN)
        created = self.osc_json(ADMIN, '2.41', 'aggregate', 'create', 'osc-agg')
        self.assertIsNone(created['availability_zone'])
        self.run_cli('openstack', ADMIN, '2.41', 'aggregate', 'add', 'host', 'osc-agg',
                     'host-2')
        self.run_cli('openstack', ADMIN, '2.41', 'aggregate', 'set', '--property',
                     'evacuable=true', 'osc-agg')
        shown = self.osc_json(ADMIN, '2.41', 'aggregate', 'show', 'osc-agg')
        self.assertEqual(['host-2'], shown['hosts'])
        self.assertEqual('true', shown['properties']['evacuable'])
        listed = self.osc_json(ADMIN, '2.41', 'aggregate', 'list', '--long')
        self.assertIn('osc-agg', [row['Name'] for row in listed])
        self.run_cli('openstack', ADMIN, '2.41', 'aggregate', 'unset', '--property',
                     'evacuable', 'osc-agg')
        done = self.run_cli('openstack', ADMIN, '2.41', 'aggregate', 'delete', 'osc-agg',
                            ok=False)
        self.assertIn('Host aggregate is not empty', done.stderr)
        self.run_cli('openstack', ADMIN, '2.41', 'aggregate', 'remove', 'host', 'osc-agg',
                     'host-2')
        self.run_cli('openstack', ADMIN, '2.41', 'aggregate', 'delete', 'osc-agg')
        done = self.run_cli('openstack', DEMO, '2.41', 'aggregate', 'list', ok=False)
        self.assertIn("os_compute_api:os-aggregates:index", done.stderr)

    def test_openstack_flavor_set_property(self):
        self.addCleanup(clients.run, self.nova, 'openstack',
                        ['flavor', 'unset', '--property', 'evacuable', 'm1.medium'], ADMIN)
        self.run_cli('openstack', ADMIN, '2.53', 'flavor', 'set', '--property',
                     'evacuable=true', 'm1.medium')
        shown = self.osc_json(ADMIN, '2.53', 'flavor', 'show', 'm1.medium')
        self.assertEqual({'evacuable': 'true'}, shown['properties'])
        self.run_cli('openstack', ADMIN, '2.53', 'flavor', 'unset', '--property',
                     'evacuable', 'm1.medium')
        self.assertEqual({}, self.osc_json(ADMIN, '2.53', 'flavor', 'show',
                                           'm1.medium')['properties'])

    # --------------------------------------------------------- openstacksdk

    def test_openstacksdk(self):
        admin = clients.sdk(self.nova, ADMIN)
        aggregate = admin.compute.create_aggregate(name='sdk-agg')
        self.addCleanup(admin.compute.delete_aggregate, aggregate, ignore_missing=True)
        self.assertIsNotNone(aggregate.uuid)
        aggregate = admin.compute.add_host_to_aggregate(aggregate, 'host-4')
        self.assertEqual(['host-4'], aggregate.hosts)
        aggregate = admin.compute.set_aggregate_metadata(aggregate, {'evacuable': 'true'})
        self.assertEqual({'evacuable': 'true'}, aggregate.metadata)
        found = admin.compute.find_aggregate('sdk-agg')
        self.assertEqual(aggregate.id, found.id)
        self.assertIn('sdk-agg', [a.name for a in admin.compute.aggregates()])
        aggregate = admin.compute.remove_host_from_aggregate(aggregate, 'host-4')
        self.assertEqual([], aggregate.hosts)
        self.assertRaises(sdk_exc.NotFoundException, admin.compute.remove_host_from_aggregate,
                          aggregate, 'host-4')
        admin.compute.delete_aggregate(aggregate)
        self.assertIsNone(admin.compute.find_aggregate('sdk-agg', ignore_missing=True))

        flavor = admin.compute.find_flavor('m1.small')
        self.addCleanup(admin.compute.delete_flavor_extra_specs_property, flavor, 'evacuable')
        admin.compute.create_flavor_extra_specs(flavor, {'evacuable': 'true'})
        self.assertEqual({'evacuable': 'true'}, admin.compute.fetch_flavor_extra_specs(
            flavor).extra_specs)
        self.assertEqual('true', admin.compute.get_flavor_extra_specs_property(
            flavor, 'evacuable'))
        demo = clients.sdk(self.nova, DEMO)
        self.assertEqual({'evacuable': 'true'}, demo.compute.fetch_flavor_extra_specs(
            flavor).extra_specs)
        self.assertRaises(sdk_exc.ForbiddenException, demo.compute.create_flavor_extra_specs,
                          flavor, {'x': 'y'})
