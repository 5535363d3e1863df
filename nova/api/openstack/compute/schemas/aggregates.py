"""Request bodies and responses of /os-aggregates (Nova's schemas' rules)."""
from nova.api.openstack.compute.schemas import parameter_types as types

_zone = {'oneOf': [types.az_name, {'type': 'null'}]}
# a rename tolerates surrounding whitespace, which is stripped (Nova's rule)
_name_padded = {'type': 'string', 'minLength': 1, 'maxLength': 255,
                'pattern': r'^\s*[^\x00-\x1f\x7f\s][^\x00-\x1f\x7f]*$'}


def _wrapped(key, properties, required=(), **extra):
    """{key: {properties...}}, nothing else, in either object."""
    inner = dict({'type': 'object', 'properties': properties,
                  'additionalProperties': False}, **extra)
    if required:
        inner['required'] = list(required)
    return {'type': 'object', 'properties': {key: inner}, 'required': [key],
            'additionalProperties': False}


create = _wrapped('aggregate', {'name': types.name, 'availability_zone': _zone}, ['name'])
update = _wrapped('aggregate', {'name': _name_padded, 'availability_zone': _zone},
                  anyOf=[{'required': ['name']}, {'required': ['availability_zone']}])
add_host = _wrapped('add_host', {'host': types.fqdn}, ['host'])
remove_host = _wrapped('remove_host', {'host': types.fqdn}, ['host'])
set_metadata = _wrapped('set_metadata', {'metadata': types.metadata(['string', 'null'], in_columns=True)},
                        ['metadata'])

aggregate_id = {'type': 'integer'}
_timestamp = {'type': ['string', 'null']}
_created = {'type': 'object',
            'required': ['id', 'name', 'created_at', 'updated_at', 'deleted_at', 'deleted',
                         'availability_zone'],
            'properties': {'id': aggregate_id, 'uuid': {'type': 'string', 'format': 'uuid'},
                           'name': {'type': 'string'}, 'created_at': {'type': 'string'},
                           'updated_at': _timestamp, 'deleted_at': _timestamp,
                           'deleted': {'type': 'boolean'},
                           'availability_zone': {'type': ['string', 'null']}}}
_aggregate = {'type': 'object', 'required': _created['required'] + ['hosts', 'metadata'],
              'properties': dict(_created['properties'],
                                 hosts={'type': 'array', 'items': {'type': 'string'}},
                                 metadata={'type': 'object'})}
create_response = {'type': 'object', 'required': ['aggregate'],
                   'properties': {'aggregate': _created}}
show_response = {'type': 'object', 'required': ['aggregate'],
                 'properties': {'aggregate': _aggregate}}
list_response = {'type': 'object', 'required': ['aggregates'],
                 'properties': {'aggregates': {'type': 'array', 'items': _aggregate}}}
