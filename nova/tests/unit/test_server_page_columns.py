"""A page of servers reads only the columns its view shows, as plain
tuples: at every microversion, for an admin and for a member, each server
of ``GET /servers/detail`` is the server ``GET /servers/{id}`` shows (which
reads every column, as mappings), and ``GET /servers`` names each one.
(MariaDB and PostgreSQL: functional/db/test_server_page_columns.py.)"""
import json

from nova.api.openstack import api_version_request as avr
from nova.db import instances as instance_db
from nova.tests import fixtures as nova_fixtures

ONLY_IN_SHOW = ('server_groups',)    # 2.71


def _versions():
    major, top = (int(part) for part in avr.MAX_VERSION.split('.'))
    return ['2.%d' % minor for minor in range(1, top + 1)]


class PageColumnsTests:
    """Needs self.api on a database of its own."""

    def add_servers(self):
        nova_fixtures.add_service('h1')
        nova_fixtures.add_service('h2', forced_down=True)
        nova_fixtures.add_server('plain', host='h1')
        nova_fixtures.add_server(
            'dressed', host='h2', tags=('a', 'b'), display_description='described',
            locked=True, locked_by='admin', locked_reason='why', key_name='key',
            metadata='{"ha": "true"}', security_groups='["default"]',
            access_ip_v4='10.0.0.5', user_data='dXNlcg==', trusted_certs='["c1"]')
        failed = nova_fixtures.add_server('failed')
        instance_db.instance_fault_create(failed, 500, 'No valid host was found.', 'details')
        nova_fixtures.add_server('other', host='h1', project_id='alt', user_id='alt')

    def _json(self, path, token, version):
        response = self.api.request('GET', path, token=token, version=version)
        self.assertEqual(200, response.status_int, (path, version, response.body))
        return response.json_body

    def test_every_paged_server_is_the_server_show_gives(self):
        for version in _versions():
            for token, query in (('admin:admin', '?all_tenants=1'), ('demo:demo', '')):
                servers = self._json('/v2.1/servers/detail' + query, token, version)['servers']
                self.assertEqual(4 if token == 'admin:admin' else 3, len(servers))
                names = self._json('/v2.1/servers' + query, token, version)['servers']
                self.assertEqual([s['id'] for s in servers], [s['id'] for s in names])
                self.assertEqual([s['name'] for s in servers], [s['name'] for s in names])
                for server in servers:
                    shown = self._json('/v2.1/servers/%s' % server['id'], token,
                                       version)['server']
                    for key in ONLY_IN_SHOW:
                        shown.pop(key, None)
                    # as JSON text: 1 is not true on the wire
                    self.assertEqual(json.dumps(shown, sort_keys=True),
                                     json.dumps(server, sort_keys=True), (version, token))


class PageColumnsTest(PageColumnsTests, nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.add_servers()
