"""Checks a response against the response schema tempest would apply.

tempest's service clients pick a schema module per microversion from their
``schema_versions_info`` tables; we ask the same tables (and tempest's own
selection function) with the microversion the response says it was served
at, then validate with tempest's ``validate_response``. The schemas forbid
unknown keys, so a key Nova does not send fails here.
"""
import re

from tempest.lib.api_schema.response.compute.v2_1 import flavors_extra_specs as extra_specs
from tempest.lib.api_schema.response.compute.v2_1 import flavors as flavors_v21
from tempest.lib.api_schema.response.compute.v2_1 import flavors_access
from tempest.lib.api_schema.response.compute.v2_1 import servers as servers_v21
from tempest.lib.api_schema.response.compute.v2_1 import services as services_v21
from tempest.lib.api_schema.response.compute.v2_1 import versions as versions_schema
from tempest.lib.api_schema.response.compute.v2_11 import services as services_v211
from tempest.lib.common import rest_client
from tempest.lib.services.compute import aggregates_client
from tempest.lib.services.compute import base_compute_client
from tempest.lib.services.compute import flavors_client
from tempest.lib.services.compute import keypairs_client
from tempest.lib.services.compute import migrations_client
from tempest.lib.services.compute import server_groups_client
from tempest.lib.services.compute import servers_client
from tempest.lib.services.compute import services_client

_UUIDISH = r'[^/?]+'


def _by_version(client_class, name):
    return lambda version: getattr(_select(client_class, version), name)


def _fixed(schema):
    return lambda version: schema


def _select(client_class, version):
    """tempest's own choice of schema module for ``version``."""
    saved = base_compute_client.COMPUTE_MICROVERSION
    base_compute_client.COMPUTE_MICROVERSION = version
    try:
        return base_compute_client.BaseComputeClient.get_schema(
            None, client_class.schema_versions_info)
    finally:
        base_compute_client.COMPUTE_MICROVERSION = saved


Servers = servers_client.ServersClient
Services = services_client.ServicesClient
Flavors = flavors_client.FlavorsClient
Aggregates = aggregates_client.AggregatesClient
_EXTRA_SPECS = r'flavors/%s/os-extra_specs' % _UUIDISH
Keypairs = keypairs_client.KeyPairsClient
Migrations = migrations_client.MigrationsClient
Groups = server_groups_client.ServerGroupsClient

# (method, path below /v2.1[/{project_id}]) -> schema for a microversion
ROUTES = [
    ('GET', r'servers', _by_version(Servers, 'list_servers')),
    ('GET', r'servers/detail', _by_version(Servers, 'list_servers_detail')),
    ('GET', r'servers/' + _UUIDISH, _by_version(Servers, 'get_server')),
    ('PUT', r'servers/' + _UUIDISH, _by_version(Servers, 'update_server')),
    ('GET', r'servers/%s/tags' % _UUIDISH, _by_version(Servers, 'list_tags')),
    ('PUT', r'servers/%s/tags' % _UUIDISH, _by_version(Servers, 'update_all_tags')),
    ('DELETE', r'servers/%s/tags' % _UUIDISH, _by_version(Servers, 'delete_all_tags')),
    ('GET', r'servers/%s/tags/%s' % (_UUIDISH, _UUIDISH),
     _by_version(Servers, 'check_tag_existence')),
    ('PUT', r'servers/%s/tags/%s' % (_UUIDISH, _UUIDISH), _by_version(Servers, 'update_tag')),
    ('DELETE', r'servers/%s/tags/%s' % (_UUIDISH, _UUIDISH),
     _by_version(Servers, 'delete_tag')),
    # create and delete: tempest uses the 2.1 schemas at every microversion;
    # Nova returns adminPass (enable_instance_password defaults to True)
    ('POST', r'servers', _fixed(servers_v21.create_server_with_admin_pass)),
    ('DELETE', r'servers/' + _UUIDISH, _fixed(servers_v21.delete_server)),
    ('GET', r'os-services', _by_version(Services, 'list_services')),
    ('PUT', r'os-services/(enable|disable)', _fixed(services_v21.enable_disable_service)),
    ('PUT', r'os-services/disable-log-reason', _fixed(services_v21.disable_log_reason)),
    ('PUT', r'os-services/force-down', _fixed(services_v211.update_forced_down)),
    # 2.53 (the action paths above answer no 2xx from 2.53)
    ('PUT', r'os-services/' + _UUIDISH, _by_version(Services, 'update_service')),
    # tempest has no client call for it; its 204 shape, as for a server
    ('DELETE', r'os-services/' + _UUIDISH, _fixed(servers_v21.delete_server)),
    ('GET', r'os-migrations', _by_version(Migrations, 'list_migrations')),
    ('GET', r'os-server-groups', _by_version(Groups, 'list_server_groups')),
    ('POST', r'os-server-groups', _by_version(Groups, 'create_show_server_group')),
    ('GET', r'os-server-groups/' + _UUIDISH, _by_version(Groups, 'create_show_server_group')),
    ('DELETE', r'os-server-groups/' + _UUIDISH, _by_version(Groups, 'delete_server_group')),
    ('GET', r'servers/%s/os-instance-actions' % _UUIDISH,
     _by_version(Servers, 'list_instance_actions')),
    ('GET', r'servers/%s/os-instance-actions/%s' % (_UUIDISH, _UUIDISH),
     _by_version(Servers, 'show_instance_action')),
    ('GET', r'flavors', _by_version(Flavors, 'list_flavors')),
    ('GET', r'flavors/detail', _by_version(Flavors, 'list_flavors_details')),
    ('GET', r'flavors/' + _UUIDISH,
     _by_version(Flavors, 'create_update_get_flavor_details')),
    ('GET', _EXTRA_SPECS, _fixed(extra_specs.set_get_flavor_extra_specs)),
    ('POST', _EXTRA_SPECS, _fixed(extra_specs.set_get_flavor_extra_specs)),
    ('GET', _EXTRA_SPECS + '/' + _UUIDISH, _fixed(extra_specs.set_get_flavor_extra_specs_key)),
    ('PUT', _EXTRA_SPECS + '/' + _UUIDISH, _fixed(extra_specs.set_get_flavor_extra_specs_key)),
    ('DELETE', _EXTRA_SPECS + '/' + _UUIDISH, _fixed(extra_specs.unset_flavor_extra_specs)),
    ('GET', r'os-aggregates', _by_version(Aggregates, 'list_aggregates')),
    ('POST', r'os-aggregates', _by_version(Aggregates, 'create_aggregate')),
    ('GET', r'os-aggregates/' + _UUIDISH, _by_version(Aggregates, 'get_aggregate')),
    ('PUT', r'os-aggregates/' + _UUIDISH, _by_version(Aggregates, 'update_aggregate')),
    ('DELETE', r'os-aggregates/' + _UUIDISH, _by_version(Aggregates, 'delete_aggregate')),
    # add_host, remove_host and set_metadata answer alike
    ('POST', r'os-aggregates/%s/action' % _UUIDISH,
     _by_version(Aggregates, 'aggregate_add_remove_host')),
    ('POST', r'flavors', _by_version(Flavors, 'create_update_get_flavor_details')),
    ('PUT', r'flavors/' + _UUIDISH, _by_version(Flavors, 'create_update_get_flavor_details')),
    ('DELETE', r'flavors/' + _UUIDISH, _fixed(flavors_v21.delete_flavor)),
    ('GET', r'flavors/%s/os-flavor-access' % _UUIDISH,
     _fixed(flavors_access.add_remove_list_flavor_access)),
    ('POST', r'flavors/%s/action' % _UUIDISH,
     _fixed(flavors_access.add_remove_list_flavor_access)),
    ('GET', r'os-keypairs', _by_version(Keypairs, 'list_keypairs')),
    ('POST', r'os-keypairs', _by_version(Keypairs, 'create_keypair')),
    ('GET', r'os-keypairs/' + _UUIDISH, _by_version(Keypairs, 'get_keypair')),
    ('DELETE', r'os-keypairs/' + _UUIDISH, _by_version(Keypairs, 'delete_keypair')),
]
_ROUTES = [(m, re.compile(r'^/v2\.1(?:/[^/]+)?/' + p + r'/?$'), s) for m, p, s in ROUTES]


_TAG_PATH = re.compile(r'^/v2\.1(?:/[^/]+)?/servers/[^/]+/tags/[^/]+$')


class Unvalidated(LookupError):
    """No tempest schema applies to this request."""


class _Resp(dict):
    """What validate_response expects: headers as a dict, plus ``status``."""

    def __init__(self, status, headers):
        super().__init__((k.lower(), v) for k, v in headers)
        self.status = status


def schema_for(method, path, version):
    """The tempest schema for a request; ``version`` as served ('2.16')."""
    path = path.split('?', 1)[0]
    if method == 'GET' and path == '/':
        return versions_schema.list_versions
    if method == 'GET' and path.rstrip('/') == '/v2.1':
        return versions_schema.get_one_version
    for route_method, pattern, schema in _ROUTES:
        if route_method == method and pattern.match(path):
            # first match in table order wins: detail before {id}
            return schema(version)
    raise Unvalidated('%s %s' % (method, path))


def served_version(headers):
    for name, value in headers:
        if name.lower() == 'openstack-api-version':
            return value.split()[-1]
    return None


def validate(method, path, status, headers, body):
    """Raise tempest's InvalidHTTPResponseBody (or Unvalidated) on mismatch."""
    if method == 'POST' and isinstance(body, dict) and 'reservation_id' in body:
        raise Unvalidated('return_reservation_id: tempest has no schema for it')
    if method == 'PUT' and status == 204 and _TAG_PATH.match(path.split('?', 1)[0]):
        # tempest asks for a Location even on 204 (the tag was there);
        # Nova sends none then, and neither do we
        raise Unvalidated('PUT of an existing tag')
    if isinstance(body, dict) and 'keypairs_links' in body:
        # tempest's keypair list schemas predate 2.35: a full page's link
        # (Nova's too) is a key they do not know
        raise Unvalidated('a 2.35 keypair page with a next link')
    if method == 'GET' and isinstance(body, dict) and 'migrations_links' in body:
        # Nova sends it on a full 2.59+ page (the v2.73 captures'
        # migrations-limit2-2.59); tempest's schema, never shown one, lacks it
        body = {k: v for k, v in body.items() if k != 'migrations_links'}
    schema = schema_for(method, path, served_version(headers))
    rest_client.RestClient.validate_response(schema, _Resp(status, headers), body)
    return schema
