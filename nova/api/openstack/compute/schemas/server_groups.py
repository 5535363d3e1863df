"""Request bodies, query strings and responses of /os-server-groups, per
microversion: 2.13 adds project_id and user_id, 2.15 the soft policies,
2.64 one ``policy`` with ``rules`` in place of ``policies`` and
``metadata``."""
import copy

from nova.api.openstack.compute.schemas import parameter_types as types
from nova.compute import group_policy


def _create(policies):
    return {
        'type': 'object',
        'properties': {
            'server_group': {
                'type': 'object',
                'properties': {
                    'name': types.name,
                    # one policy, in a list, below 2.64
                    'policies': {'type': 'array',
                                 'items': [{'type': 'string', 'enum': list(policies)}],
                                 'uniqueItems': True, 'minItems': 1, 'maxItems': 1,
                                 'additionalItems': False},
                },
                'required': ['name', 'policies'],
                'additionalProperties': False,
            },
        },
        'required': ['server_group'],
        'additionalProperties': False,
    }


create = _create(group_policy.POLICIES_V21)
create_v215 = _create(group_policy.POLICIES)
create_v264 = copy.deepcopy(create_v215)
_group = create_v264['properties']['server_group']
del _group['properties']['policies']
_group['properties']['policy'] = {'type': 'string', 'enum': list(group_policy.POLICIES)}
_group['properties']['rules'] = {
    'type': 'object',
    'properties': {group_policy.MAX_SERVER_PER_HOST: {
        'type': ['integer', 'string'], 'pattern': '^[0-9]*$', 'minimum': 1, 'minLength': 1}},
    'additionalProperties': False,
}
_group['required'] = ['name', 'policy']

index_query = {'all_projects': {'type': 'string'},
               'limit': types.non_negative_integer,
               'offset': types.non_negative_integer}

_string = {'type': 'string'}
_uuids = {'type': 'array', 'items': {'type': 'string', 'format': 'uuid'}}
server_group = {
    'type': 'object',
    'required': ['id', 'name', 'members'],
    'properties': {
        'id': {'type': 'string', 'format': 'uuid'}, 'name': _string, 'members': _uuids,
        'policies': {'type': 'array', 'items': _string}, 'metadata': {'type': 'object'},
        'project_id': _string, 'user_id': _string, 'policy': _string,
        'rules': {'type': 'object', 'properties': {
            group_policy.MAX_SERVER_PER_HOST: {'type': 'integer'}}},
    },
}
show_response = {'type': 'object', 'required': ['server_group'],
                 'properties': {'server_group': server_group}}
list_response = {'type': 'object', 'required': ['server_groups'],
                 'properties': {'server_groups': {'type': 'array', 'items': server_group}}}

# ours: GET /os-server-groups/{id}/host-status
_count = {'type': 'integer', 'minimum': 0}
host_status_response = {
    'type': 'object', 'required': ['server_group_host_status'],
    'properties': {'server_group_host_status': {
        'type': 'object',
        'required': ['id', 'policy', 'members', 'up', 'unknown_or_down', 'shared_host',
                     'servers'],
        'properties': {
            'id': {'type': 'string', 'format': 'uuid'}, 'policy': _string,
            'members': _count, 'up': _count, 'unknown_or_down': _count,
            'shared_host': {'type': 'boolean'},
            'servers': {'type': 'array', 'items': {
                'type': 'object', 'required': ['id', 'host_status', 'hostId'],
                'properties': {'id': {'type': 'string', 'format': 'uuid'},
                               'host_status': _string, 'hostId': _string,
                               'host': {'type': ['string', 'null']}}}},
        },
    }},
}
