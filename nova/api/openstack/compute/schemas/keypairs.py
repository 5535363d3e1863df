"""Request bodies, query strings and responses of /os-keypairs, per
microversion: 2.2 adds the type, 2.10 an admin's user_id, 2.35 paging."""
import copy

from nova.api.openstack.compute.schemas import parameter_types as types

TYPES = ['ssh', 'x509']

_name = {'allOf': [types.name, {'type': 'string', 'pattern': r'^[_\- a-zA-Z0-9]+$'}]}

create = {
    'type': 'object',
    'properties': {
        'keypair': {
            'type': 'object',
            'properties': {'name': _name, 'public_key': {'type': 'string'}},
            'required': ['name'],
            'additionalProperties': False,
        },
    },
    'required': ['keypair'],
    'additionalProperties': False,
}
create_v22 = copy.deepcopy(create)
create_v22['properties']['keypair']['properties']['type'] = {'type': 'string', 'enum': TYPES}
create_v210 = copy.deepcopy(create_v22)
create_v210['properties']['keypair']['properties']['user_id'] = {'type': 'string',
                                                                'pattern': types.NO_NUL}

_string = {'type': 'string'}
user_query = {'user_id': _string}
page_query = {'limit': types.non_negative_integer, 'marker': _string}

_keypair = {'type': 'object', 'required': ['name', 'public_key', 'fingerprint'],
            'properties': {'name': _string, 'public_key': _string, 'fingerprint': _string,
                           'type': {'type': 'string', 'enum': TYPES}}}
show_response = {'type': 'object', 'required': ['keypair'], 'properties': {'keypair': _keypair}}
list_response = {
    'type': 'object', 'required': ['keypairs'],
    'properties': {
        'keypairs': {'type': 'array', 'items': show_response},
        'keypairs_links': {'type': 'array', 'items': {'type': 'object',
                                                      'required': ['rel', 'href']}},
    },
}
