"""Query strings and responses of GET /os-migrations, per microversion
(Nova's: any parameter below 2.59, only these from 2.59)."""
from nova.api.openstack import api_version_request as avr

_string = {'type': 'string'}
_time = {'type': 'string', 'format': 'date-time'}

# the filters, at every version
list_query = {key: _string for key in ('hidden', 'host', 'instance_uuid',
                                         'source_compute', 'status', 'migration_type')}
# 2.59: paging and changes-since; anything else is 400
list_query_v259 = dict(list_query, **{
    'limit': {'type': ['integer', 'string'], 'pattern': '^[0-9]*$', 'minimum': 0,
              'minLength': 1},
    'marker': _string,
    'changes-since': _time,
})
# 2.66: changes-before
list_query_v266 = dict(list_query_v259, **{'changes-before': _time})

# (first version, parameters), newest first
LIST_QUERIES = ((avr.CHANGES_BEFORE, list_query_v266),
                (avr.MIGRATIONS_PAGING, list_query_v259),
                (avr.MIN_VERSION, list_query))

_migration = {'type': 'object', 'required': [
    'id', 'source_compute', 'dest_compute', 'source_node', 'dest_node', 'dest_host',
    'old_instance_type_id', 'new_instance_type_id', 'instance_uuid', 'status',
    'created_at', 'updated_at']}
_links = {'type': 'array', 'items': {'type': 'object', 'required': ['rel', 'href']}}
list_response = {'type': 'object', 'required': ['migrations'],
                 'properties': {'migrations': {'type': 'array', 'items': _migration},
                                'migrations_links': _links}}
