"""openstacksdk against the all-in-one over HTTP, as an admin and a project
member, at 2.15, 2.16 and negotiated from our version document, with every
host_status case seeded (see cases.py)."""
from openstack import exceptions as sdk_exc
from openstack import utils as sdk_utils
from oslo_utils import uuidutils

from nova.api.openstack import api_version_request as avr
from nova.tests.functional import cases
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO
VERSIONS = ('2.15', '2.16', None)      # None: negotiated


class OpenstacksdkTest(cases.SeededTestCase):

    def test_negotiates_our_maximum_from_the_version_document(self):
        conn = clients.sdk(self.nova, ADMIN)
        data = conn.compute.get_endpoint_data()
        self.assertEqual((2, 1), data.min_microversion)
        self.assertEqual(tuple(int(p) for p in avr.MAX_VERSION.split('.')),
                         data.max_microversion)
        # the Server resource goes up to 2.100: min(2.100, ours)
        self.assertEqual(avr.MAX_VERSION,
                         sdk_utils.maximum_supported_microversion(conn.compute, '2.100'))
        self.assertEqual('UNKNOWN', conn.compute.get_server(self.ids['c-stale']).host_status)

    def test_servers_details_and_get_server(self):
        for version in VERSIONS:
            with_key = version != '2.15'
            admin = clients.sdk(self.nova, ADMIN, version)
            listed = {s.name: s.host_status for s in admin.compute.servers(
                details=True, all_projects=True) if s.name in cases.EXPECTED}
            self.assertEqual(cases.EXPECTED if with_key else dict.fromkeys(cases.EXPECTED),
                             listed, version)
            for name, expected in cases.EXPECTED.items():
                server = admin.compute.get_server(self.ids[name])
                self.assertEqual(expected if with_key else None, server.host_status, name)
            self.assertEqual('host-2', admin.compute.get_server(self.ids['c-stale']).compute_host)

            demo = clients.sdk(self.nova, DEMO, version)
            servers = list(demo.compute.servers(details=True))
            self.assertEqual(set(cases.CASES), {s.name for s in servers})
            self.assertEqual({None}, {s.host_status for s in servers})
            self.assertIsNone(demo.compute.get_server(self.ids['c-stale']).host_status)
            self.assertRaises(sdk_exc.NotFoundException, demo.compute.get_server,
                              self.ids[cases.OTHER_PROJECT])
            self.assertRaises(sdk_exc.ForbiddenException, list,
                              demo.compute.servers(details=True, all_projects=True))

    def test_services(self):
        for version in VERSIONS:
            services = {s.host: s for s in clients.sdk(self.nova, ADMIN, version)
                        .compute.services()}
            self.assertEqual(['host-%d' % i for i in range(1, 6)], sorted(services))
            self.assertEqual(('up', 'down'), (services['host-1'].state,
                                              services['host-2'].state))
            self.assertTrue(services['host-3'].is_forced_down)
            self.assertEqual(('disabled', 'maintenance'),
                             (services['host-4'].status, services['host-4'].disabled_reason))
        self.assertRaises(sdk_exc.ForbiddenException, list,
                          clients.sdk(self.nova, DEMO).compute.services())

    def test_service_actions_change_host_status(self):
        compute = clients.sdk(self.nova, ADMIN, '2.16').compute
        self.addCleanup(compute.enable_service, None, 'host-1', 'nova-compute')
        self.addCleanup(compute.update_service_forced_down, None, 'host-1', 'nova-compute',
                        False)
        compute.disable_service(None, 'host-1', 'nova-compute', disabled_reason='bios')
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        compute.update_service_forced_down(None, 'host-1', 'nova-compute', True)
        self.assertEqual('DOWN', self._host_status_of_c_up())
        compute.update_service_forced_down(None, 'host-1', 'nova-compute', False)
        compute.enable_service(None, 'host-1', 'nova-compute')
        self.assertEqual('UP', self._host_status_of_c_up())

    def test_update_service_by_uuid(self):
        # negotiated: the highest version we offer, 2.53, where the sdk names
        # services by UUID and sends PUT /os-services/{service_id}
        compute = clients.sdk(self.nova, ADMIN).compute
        service = compute.find_service('nova-compute', ignore_missing=False, host='host-1')
        self.assertTrue(uuidutils.is_uuid_like(service.id), service.id)
        self.addCleanup(compute.update_service, service.id, status='enabled',
                        forced_down=False)
        updated = compute.disable_service(service, disabled_reason='bios')
        self.assertEqual((service.id, 'disabled', 'bios'),
                         (updated.id, updated.status, updated.disabled_reason))
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        updated = compute.update_service(service.id, forced_down=True)
        self.assertTrue(updated.is_forced_down)
        self.assertEqual('DOWN', self._host_status_of_c_up())
        # (by id: the sdk sends only what differs from the object it holds)
        compute.update_service_forced_down(service.id, forced=False)
        updated = compute.enable_service(service.id)
        self.assertEqual(('enabled', None, False), (updated.status, updated.disabled_reason,
                                                    updated.is_forced_down))
        self.assertEqual('UP', self._host_status_of_c_up())
        # Masakari's form through the sdk: disable by host and binary
        compute.disable_service(None, 'host-1', 'nova-compute', disabled_reason='fenced')
        self.assertEqual('MAINTENANCE', self._host_status_of_c_up())
        compute.enable_service(None, 'host-1', 'nova-compute')
        self.assertRaises(sdk_exc.ConflictException, compute.delete_service, service.id)
        self.assertRaises(sdk_exc.BadRequestException, compute.update_service, service.id,
                          status='enabled', disabled_reason='x')
        self.assertEqual('UP', self._host_status_of_c_up())

    def test_create_by_image_name_and_delete(self):
        conn = clients.sdk(self.nova, DEMO)
        image = conn.image.find_image('cirros')
        self.assertEqual(func.IMAGE, image.id)
        flavor = conn.compute.find_flavor('m1.tiny')
        # the sdk negotiates 2.53, where Nova requires networks (2.37)
        server = conn.compute.create_server(name='made-by-sdk', image_id=image.id,
                                            flavor_id=flavor.id, networks='auto')
        server = conn.compute.wait_for_server(server, interval=0.2, wait=30)
        self.assertEqual('ACTIVE', server.status)
        self.assertEqual('UP', clients.sdk(self.nova, ADMIN).compute.get_server(
            server.id).host_status)
        conn.compute.delete_server(server)
        conn.compute.wait_for_delete(server, interval=0.2, wait=30)
