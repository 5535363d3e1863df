"""Request bodies of POST /servers/{server_id}/action, one per action, as
Nova's (evacuate and lock: one per microversion range)."""
import copy

from nova.api.openstack.compute.schemas.parameter_types import NO_NUL, boolean


def _any_value(action):
    """{action: anything}: Nova accepts any value for these (null in practice)."""
    return {'type': 'object', 'properties': {action: {}}, 'required': [action],
            'additionalProperties': False}


stop = _any_value('os-stop')
start = _any_value('os-start')
lock = _any_value('lock')
unlock = _any_value('unlock')

# from 2.73: nothing, or a reason
lock_v273 = {
    'type': 'object',
    'properties': {
        'lock': {
            'type': ['object', 'null'],
            'properties': {
                'locked_reason': {'type': 'string', 'minLength': 1, 'maxLength': 255,
                                  'pattern': NO_NUL},
            },
            'additionalProperties': False,
        },
    },
    'required': ['lock'],
    'additionalProperties': False,
}

reboot = {
    'type': 'object',
    'properties': {
        'reboot': {
            'type': 'object',
            'properties': {
                'type': {'type': 'string',
                         'enum': ['HARD', 'Hard', 'hard', 'SOFT', 'Soft', 'soft']},
            },
            'required': ['type'],
            'additionalProperties': False,
        },
    },
    'required': ['reboot'],
    'additionalProperties': False,
}

reset_state = {
    'type': 'object',
    'properties': {
        'os-resetState': {
            'type': 'object',
            'properties': {'state': {'type': 'string', 'enum': ['active', 'error']}},
            'required': ['state'],
            'additionalProperties': False,
        },
    },
    'required': ['os-resetState'],
    'additionalProperties': False,
}

_host = {'type': 'string', 'pattern': '^[a-zA-Z0-9-._]*$', 'minLength': 1,
         'maxLength': 255}

# below 2.14
evacuate = {
    'type': 'object',
    'properties': {
        'evacuate': {
            'type': 'object',
            'properties': {
                'host': _host,
                'onSharedStorage': boolean,
                'adminPass': {'type': 'string'},
            },
            'required': ['onSharedStorage'],
            'additionalProperties': False,
        },
    },
    'required': ['evacuate'],
    'additionalProperties': False,
}

# 2.14 - 2.28: no onSharedStorage
evacuate_v214 = copy.deepcopy(evacuate)
del evacuate_v214['properties']['evacuate']['properties']['onSharedStorage']
del evacuate_v214['properties']['evacuate']['required']

# from 2.29: force
evacuate_v229 = copy.deepcopy(evacuate_v214)
evacuate_v229['properties']['evacuate']['properties']['force'] = boolean

# from 2.68: no force again
evacuate_v268 = copy.deepcopy(evacuate_v214)

no_body = {'type': 'null'}
evacuate_response = {
    'type': 'object',
    'properties': {'adminPass': {'type': ['string', 'null']}},
    'required': ['adminPass'],
    'additionalProperties': False,
}
