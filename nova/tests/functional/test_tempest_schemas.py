"""tempest's response schemas (tempest.lib.api_schema.response.compute)
accept every servers, os-services, os-migrations, flavors and versions
response we serve, at every microversion from 2.1 to 2.73 (tempest picks its
schema for each: v2_1 ... v2_16, v2_19, v2_26, v2_45, v2_47, v2_48, v2_51,
v2_53, v2_54, v2_55, v2_57, v2_61, v2_62, v2_63, v2_70, v2_71, v2_73;
migrations v2_1, v2_23, v2_59), for an admin and a project member.

AllInOne.request validates each successful response itself (see
fixtures.check_tempest_schema); these tests make sure every route, role,
microversion and server state is asked for at least once, and that the
check bites."""
import base64
import copy
import uuid as uuidlib

import sqlalchemy as sa

from tempest.lib import exceptions as tempest_exc
from tempest.lib.api_schema.response.compute.v2_1 import servers as v2_1
from tempest.lib.api_schema.response.compute.v2_3 import servers as v2_3
from tempest.lib.api_schema.response.compute.v2_9 import servers as v2_9
from tempest.lib.api_schema.response.compute.v2_11 import services as services_v2_11
from tempest.lib.api_schema.response.compute.v2_16 import servers as v2_16
from tempest.lib.api_schema.response.compute.v2_19 import servers as v2_19
from tempest.lib.api_schema.response.compute.v2_26 import servers as v2_26
from tempest.lib.api_schema.response.compute.v2_47 import servers as v2_47
from tempest.lib.api_schema.response.compute.v2_51 import servers as v2_51
from tempest.lib.api_schema.response.compute.v2_53 import services as services_v2_53
from tempest.lib.api_schema.response.compute.v2_59 import migrations as migrations_v2_59
from tempest.lib.api_schema.response.compute.v2_71 import servers as v2_71
from tempest.lib.api_schema.response.compute.v2_73 import servers as v2_73

from nova.db import dbtime
from nova.db import models
from nova.tests.functional import cases
from nova.tests.functional import fixtures as func
from nova.tests.functional import tempest_schemas

ADMIN, DEMO = func.ADMIN, func.DEMO
VERSIONS = (None,) + tuple('2.%d' % minor for minor in range(1, 74)) + ('latest',)


def _at_least(version, other):
    """``version`` as requested (None: 2.1, 'latest') is at least ``other``."""
    if version == 'latest':
        return True
    version = version or '2.1'
    return tuple(map(int, version.split('.'))) >= tuple(map(int, other.split('.')))


class TempestSchemasTest(func.SharedAllInOneTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    @classmethod
    def seed_class(cls):
        nova = cls.nova
        nova.request('POST', '/v2.1/os-keypairs', token=DEMO,
                     body={'keypair': {'name': 'ops'}})
        cls.rich = nova.create_server(
            name='rich', metadata={'role': 'db'}, security_groups=[{'name': 'web'}],
            key_name='ops', user_data=base64.b64encode(b'#!/bin/sh\n').decode(),
            config_drive=True, accessIPv4='192.0.2.10', accessIPv6='2001:db8::10',
            **{'OS-DCF:diskConfig': 'AUTO'})
        nova.request('PUT', '/v2.1/servers/%s/tags' % cls.rich, token=DEMO, version='2.26',
                     body={'tags': ['db', 'prod']})
        nova.request('PUT', '/v2.1/servers/' + cls.rich, token=DEMO, version='2.19',
                     body={'server': {'description': 'the database'}})
        cls.plain = nova.create_server(name='plain')
        gone = nova.create_server(name='gone')
        nova.request('DELETE', '/v2.1/servers/' + gone, token=DEMO)
        # its host deletes it asynchronously; then it lists as DELETED
        nova._wait(lambda: nova.show(gone).status == 404, 20, 'gone deleted')
        for host in nova.host_names:
            nova.service_action('disable', host)
        cls.error = nova.create_server(name='no-host', wait_status='ERROR')
        nova.service_action('enable', 'host-1')
        nova.service_action('disable-log-reason', 'host-2', disabled_reason='disk swap')
        cls.building = nova.create_server(name='building', wait_status=None)

    def _get(self, path, token, version):
        resp = self.nova.request('GET', path, token=token, version=version)
        self.assertEqual(200, resp.status, (path, token, version, resp.raw))
        return resp

    def test_servers_at_every_microversion_and_role(self):
        seen = set()
        for version in VERSIONS:
            for token, query in ((ADMIN, '?all_tenants=1'), (DEMO, '')):
                self._get('/v2.1/servers' + query, token, version)
                detail = self._get('/v2.1/servers/detail' + query, token, version).json
                self.assertGreaterEqual(len(detail['servers']), 4)
                seen |= {s.get('host_status') for s in detail['servers']}
                for uuid in (self.rich, self.plain, self.error, self.building):
                    server = self._get('/v2.1/servers/' + uuid, token, version).json
                    seen.add(server['server'].get('host_status'))
                self._get('/v2.1/demo/servers/detail?limit=1', DEMO, version)
            deleted = self._get('/v2.1/servers/detail?all_tenants=1&changes-since='
                                '2000-01-01T00:00:00Z', ADMIN, version).json['servers']
            self.assertIn('DELETED', [s['status'] for s in deleted])
        # the states shown: UP, MAINTENANCE (host-2), "" (no host), absent
        self.assertEqual({None, 'UP', 'MAINTENANCE', ''}, seen)

    def test_create_and_delete_at_every_microversion(self):
        for version in VERSIONS:
            server = {'name': 'tmp', 'flavorRef': '1', 'imageRef': func.IMAGE}
            if _at_least(version, '2.37'):
                server['networks'] = 'none' if version == 'latest' else 'auto'
            if version == 'latest':
                server.update(description='d', tags=['t'])
            resp = self.nova.request('POST', '/v2.1/servers', token=DEMO, version=version,
                                     body={'server': server})
            self.assertEqual(202, resp.status, resp.raw)
            uuid = resp.json['server']['id']
            # as Nova: a Location header with the new server's self link
            self.assertEqual(resp.json['server']['links'][0]['href'], resp.header('Location'))
            self.assertTrue(resp.header('Location').endswith('/v2.1/servers/' + uuid))
            resp = self.nova.request('DELETE', '/v2.1/servers/' + uuid, token=DEMO,
                                     version=version)
            self.assertEqual(204, resp.status, resp.raw)

    def test_create_in_the_project_path_form(self):
        resp = self.nova.request('POST', '/v2.1/demo/servers', token=DEMO, version='2.16',
                                 body={'server': {'name': 'tmp', 'flavorRef': '1',
                                                  'imageRef': func.IMAGE}})
        self.assertEqual(202, resp.status, resp.raw)
        uuid = resp.json['server']['id']
        self.assertEqual(self.nova.url + '/v2.1/demo/servers/' + uuid, resp.header('Location'))
        self.assertEqual(204, self.nova.request('DELETE', '/v2.1/demo/servers/' + uuid,
                                                token=DEMO).status)

    def test_update_and_tags_at_every_microversion(self):
        server = '/v2.1/servers/' + self.plain
        for version in VERSIONS:
            body = {'server': {'name': 'plain', 'accessIPv4': '192.0.2.1'}}
            resp = self.nova.request('PUT', server, token=DEMO, version=version, body=body)
            self.assertEqual(200, resp.status, (version, resp.raw))
            if not _at_least(version, '2.26'):
                self.assertEqual(404, self.nova.request(
                    'GET', server + '/tags', token=DEMO, version=version).status)
                continue
            for method, path, body, status in (
                    ('PUT', '/tags', {'tags': ['a', 'b']}, 200),
                    ('PUT', '/tags/c', None, 201),
                    ('GET', '/tags', None, 200),
                    ('GET', '/tags/c', None, 204),
                    ('DELETE', '/tags/c', None, 204),
                    ('DELETE', '/tags', None, 204)):
                resp = self.nova.request(method, server + path, token=DEMO, version=version,
                                         body=body)
                self.assertEqual(status, resp.status, (method, path, version, resp.raw))

    def test_flavor_management_at_every_microversion(self):
        for index, version in enumerate(VERSIONS):
            flavor = 'tf-%d' % index
            for method, path, body, status in (
                    ('POST', '/flavors', {'flavor': {
                        'name': flavor, 'id': flavor, 'ram': 64, 'vcpus': 1, 'disk': 0,
                        'os-flavor-access:is_public': False}}, 200),
                    ('POST', '/flavors/%s/action' % flavor,
                     {'addTenantAccess': {'tenant': 'demo'}}, 200),
                    ('GET', '/flavors/%s/os-flavor-access' % flavor, None, 200),
                    ('POST', '/flavors/%s/action' % flavor,
                     {'removeTenantAccess': {'tenant': 'demo'}}, 200),
                    ('DELETE', '/flavors/' + flavor, None, 202)):
                resp = self.nova.request(method, '/v2.1' + path, token=ADMIN, version=version,
                                         body=body)
                self.assertEqual(status, resp.status, (method, path, version, resp.raw))

    def test_keypairs_at_every_microversion(self):
        for index, version in enumerate(VERSIONS):
            name = 'tk-%d' % index
            typed = _at_least(version, '2.2')
            for method, path, body, status in (
                    ('POST', '', {'keypair': {'name': name}}, 201 if typed else 200),
                    ('GET', '', None, 200),
                    ('GET', '?limit=1', None, 200),
                    ('GET', '/' + name, None, 200),
                    ('DELETE', '/' + name, None, 204 if typed else 202)):
                resp = self.nova.request(method, '/v2.1/os-keypairs' + path, token=DEMO,
                                         version=version, body=body)
                self.assertEqual(status, resp.status, (method, path, version, resp.raw))

    def test_services_at_every_microversion(self):
        for version in VERSIONS:
            listed = self._get('/v2.1/os-services', ADMIN, version).json['services']
            # listed in registration order: the computes register concurrently
            self.assertEqual(sorted(self.nova.host_names), sorted(s['host'] for s in listed))
            self._get('/v2.1/os-services?binary=nova-compute&host=host-1', ADMIN, version)
        for version in [v for v in VERSIONS if not _at_least(v, '2.53')]:  # the action form
            for action, extra in (('disable', {}), ('enable', {}),
                                  ('disable-log-reason', {'disabled_reason': 'swap'}),
                                  ('enable', {})):
                resp = self.nova.service_action(action, 'host-1', version=version or '2.1',
                                                **extra)
                self.assertEqual(200, resp.status, resp.raw)
        for version in ('2.11', '2.16', '2.52'):
            for down in (True, False):
                resp = self.nova.service_action('force-down', 'host-1', version=version,
                                                forced_down=down)
                self.assertEqual(200, resp.status, resp.raw)

    def test_service_update_by_uuid(self):
        uuid = self._get('/v2.1/os-services?host=host-1', ADMIN,
                         '2.53').json['services'][0]['id']
        for version in ('2.53', 'latest'):
            for body in ({'status': 'disabled', 'disabled_reason': 'swap'},
                         {'forced_down': True}, {'status': 'disabled'},
                         {'status': 'enabled', 'forced_down': False}):
                resp = self.nova.request('PUT', '/v2.1/os-services/' + uuid, token=ADMIN,
                                         version=version, body=body)
                self.assertEqual(200, resp.status, (body, resp.raw))
                self.assertEqual(uuid, resp.json['service']['id'])

    def test_service_delete_at_every_microversion(self):
        self.nova.attach_logs_on_failure(self)
        # os-services changes last at 2.53: the versions since add nothing
        # here but more deletes racing the heartbeats on one SQLite file
        for version in [v for v in VERSIONS if not _at_least(v, '2.54')] + ['2.73', 'latest']:
            row = self._spare_service(version)
            by_uuid = _at_least(version, '2.53')
            resp = self.nova.request('DELETE', '/v2.1/os-services/%s' % (
                row['uuid'] if by_uuid else row['id']), token=ADMIN, version=version)
            self.assertEqual((204, b''), (resp.status, resp.raw), version)
        self.assertEqual(sorted(self.nova.host_names),
                         sorted(s['host'] for s in self.nova.services()))

    def _spare_service(self, version):
        """A nova-compute row of a host without servers, as one registers."""
        engine = cases.engine(self.nova)
        self.addCleanup(engine.dispose)
        row = dict(uuid=str(uuidlib.uuid4()), host='spare-%s' % version, binary='nova-compute',
                   topic='compute', report_count=0, disabled=False, forced_down=False,
                   deleted=0)
        with engine.begin() as conn:
            row['id'] = conn.execute(sa.insert(models.services).values(
                created_at=sa.select(dbtime.db_now()).scalar_subquery(), **row)
            ).inserted_primary_key[0]
        return row

    def test_migrations_at_every_microversion(self):
        engine = cases.engine(self.nova)
        self.addCleanup(engine.dispose)
        with engine.begin() as conn:
            for status, updated in (('accepted', None), ('done', True), ('error', True)):
                conn.execute(sa.insert(models.migrations).values(
                    uuid=str(uuidlib.uuid4()), instance_uuid=self.plain,
                    # hosts of their own: the services tests force host-1 up,
                    # which an unsettled evacuation from it would refuse
                    migration_type='evacuation', source_compute='host-gone',
                    source_node='host-gone', dest_compute='host-new', status=status,
                    created_at=sa.select(dbtime.db_now()).scalar_subquery(),
                    updated_at=sa.select(dbtime.db_now()).scalar_subquery() if updated else None,
                    deleted=0))
        for version in VERSIONS:
            listed = self._get('/v2.1/os-migrations', ADMIN, version).json['migrations']
            self.assertEqual(3, len(listed))
            self._get('/v2.1/os-migrations?migration_type=evacuation&instance_uuid=%s'
                      % self.plain, ADMIN, version)
            if _at_least(version, '2.59'):
                page = self._get('/v2.1/os-migrations?limit=1', ADMIN, version).json
                self.assertEqual(1, len(page['migrations']))
                self.assertIn('migrations_links', page)

    def test_flavors_and_versions(self):
        for version in VERSIONS:
            for token in (ADMIN, DEMO):
                self._get('/v2.1/flavors', token, version)
                self._get('/v2.1/flavors/detail', token, version)
                self._get('/v2.1/flavors/1', token, version)
        for path in ('/', '/v2.1', '/v2.1/'):
            self._get(path, None, None)
            self._get(path, ADMIN, '2.16')

    # ------------------------------------------------ the check can fail

    def test_tempest_picks_the_schema_of_the_served_microversion(self):
        path = '/v2.1/servers/' + self.plain
        self.assertIs(v2_1.get_server, tempest_schemas.schema_for('GET', path, None))
        self.assertIs(v2_1.get_server, tempest_schemas.schema_for('GET', path, '2.2'))
        self.assertIs(v2_3.get_server, tempest_schemas.schema_for('GET', path, '2.3'))
        self.assertIs(v2_9.get_server, tempest_schemas.schema_for('GET', path, '2.15'))
        self.assertIs(v2_16.get_server, tempest_schemas.schema_for('GET', path, '2.16'))
        self.assertIs(v2_19.get_server, tempest_schemas.schema_for('GET', path, '2.25'))
        self.assertIs(v2_26.get_server, tempest_schemas.schema_for('GET', path, '2.44'))
        self.assertIs(v2_47.get_server, tempest_schemas.schema_for('GET', path, '2.47'))
        self.assertIs(v2_51.get_server, tempest_schemas.schema_for('GET', path, '2.53'))
        self.assertIs(v2_71.get_server, tempest_schemas.schema_for('GET', path, '2.72'))
        self.assertIs(v2_73.get_server, tempest_schemas.schema_for('GET', path, '2.73'))
        self.assertIs(migrations_v2_59.list_migrations,
                      tempest_schemas.schema_for('GET', '/v2.1/os-migrations', '2.66'))
        self.assertIs(v2_26.update_server, tempest_schemas.schema_for('PUT', path, '2.26'))
        self.assertIs(v2_26.list_tags, tempest_schemas.schema_for('GET', path + '/tags',
                                                                  '2.26'))
        self.assertIs(v2_16.list_servers_detail,
                      tempest_schemas.schema_for('GET', '/v2.1/demo/servers/detail', '2.16'))
        self.assertIs(services_v2_11.list_services,
                      tempest_schemas.schema_for('GET', '/v2.1/os-services', '2.11'))
        self.assertIs(services_v2_11.list_services,
                      tempest_schemas.schema_for('GET', '/v2.1/os-services', '2.52'))
        self.assertIs(services_v2_53.list_services,
                      tempest_schemas.schema_for('GET', '/v2.1/os-services', '2.53'))
        self.assertIs(services_v2_53.update_service, tempest_schemas.schema_for(
            'PUT', '/v2.1/os-services/' + self.plain, '2.53'))

    def test_service_schemas_reject_integer_ids_at_2_53(self):
        resp = self._get('/v2.1/os-services', ADMIN, '2.52')
        headers = [('OpenStack-API-Version', 'compute 2.53')]
        self.assertRaises(tempest_exc.InvalidHTTPResponseBody, tempest_schemas.validate,
                          'GET', '/v2.1/os-services', 200, headers, resp.json)

    def test_schemas_reject_keys_nova_does_not_send(self):
        resp = self.nova.show(self.plain, version='2.16')
        self.assertIn('host_status', resp.json['server'])

        def check(body, version):
            headers = [('OpenStack-API-Version', 'compute ' + version)]
            tempest_schemas.validate('GET', '/v2.1/servers/' + self.plain, 200, headers,
                                     body)

        check(resp.json, '2.16')
        # host_status at 2.15, locked at 2.8, an invented key at 2.16
        self.assertRaises(tempest_exc.InvalidHTTPResponseBody, check, resp.json, '2.15')
        older = copy.deepcopy(resp.json)
        del older['server']['host_status']
        self.assertRaises(tempest_exc.InvalidHTTPResponseBody, check, older, '2.8')
        extra = copy.deepcopy(resp.json)
        extra['server']['host_state'] = 'UP'
        self.assertRaises(tempest_exc.InvalidHTTPResponseBody, check, extra, '2.16')
        # 2.53: description, tags and the embedded flavor are required
        latest = self.nova.show(self.rich, version='2.53').json
        check(latest, '2.53')
        for key in ('description', 'tags'):
            missing = copy.deepcopy(latest)
            del missing['server'][key]
            self.assertRaises(tempest_exc.InvalidHTTPResponseBody, check, missing, '2.53')
        self.assertRaises(tempest_exc.InvalidHTTPResponseBody, check,
                          self.nova.show(self.rich, version='2.46').json, '2.47')
        # a null progress (what Nova's captures show) is refused
        nulled = copy.deepcopy(resp.json)
        nulled['server']['progress'] = None
        self.assertRaises(tempest_exc.InvalidHTTPResponseBody, check, nulled, '2.16')
