"""Request bodies and response shapes of /os-services.

Before 2.53 a PUT names its action on the path and the service in the body
(host and binary); from 2.53 the path names the service by its UUID and the
body says what to change. Each body is validated before anything else, as
Nova does, so at 2.53 a host/binary body to ``/os-services/disable`` is a
400 for its unexpected keys.
"""
import copy

from nova.api.openstack import api_version_request as avr
from nova.api.openstack.compute.schemas import parameter_types

_text = {'type': 'string', 'minLength': 1, 'maxLength': 255,
         'pattern': parameter_types.NO_NUL}
# a host name; underscores are allowed, as some real systems have them
_host = dict(_text, pattern='^[a-zA-Z0-9-._]*$')

# 2.1 - 2.10: enable, disable, disable-log-reason
action_body = {
    'type': 'object',
    'properties': {'host': _host, 'binary': _text, 'disabled_reason': _text},
    'required': ['host', 'binary'],
    'additionalProperties': False,
}
# 2.11 - 2.52: the same bodies, and force-down's forced_down
action_body_v211 = copy.deepcopy(action_body)
action_body_v211['properties']['forced_down'] = parameter_types.boolean
# (first version, schema), newest first
ACTION_BODIES = ((avr.SERVICE_FORCE_DOWN, action_body_v211), (avr.MIN_VERSION, action_body))

# 2.53: PUT /os-services/{service_id}; what must be there is checked in code
update_body = {
    'type': 'object',
    'properties': {
        'status': {'type': 'string', 'enum': ['enabled', 'disabled']},
        'disabled_reason': _text,
        'forced_down': parameter_types.boolean,
    },
    'additionalProperties': False,
}

actions = ['enable', 'disable', 'disable-log-reason', 'force-down']
service_id = {'type': 'string', 'minLength': 1}
list_query = {'host': {'type': 'string'}, 'binary': {'type': 'string'}}

_service = {
    'type': 'object',
    'required': ['binary', 'disabled_reason', 'host', 'id', 'state', 'status',
                 'updated_at', 'zone'],
    'properties': {
        'binary': {'type': 'string'},
        'disabled_reason': {'type': ['string', 'null']},
        'forced_down': {'type': 'boolean'},
        'host': {'type': 'string'},
        'id': {'type': ['integer', 'string']},     # a UUID from 2.53
        'state': {'enum': ['up', 'down']},
        'status': {'enum': ['enabled', 'disabled']},
        'updated_at': {'type': ['string', 'null']},
        'zone': {'type': 'string'},
    },
    'additionalProperties': False,
}
list_response = {'type': 'object', 'required': ['services'], 'properties': {
    'services': {'type': 'array', 'items': _service}}}
# the action form echoes what it changed; 2.53 answers the whole service
update_response = {'type': 'object', 'required': ['service'], 'properties': {
    'service': {'type': 'object', 'required': ['host', 'binary']}}}
documented_update_body = {'anyOf': [action_body_v211, update_body]}
