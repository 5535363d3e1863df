"""Bodies and responses of /os-host-maintenance (times are checked in
nova/compute/maintenance.py, which says what is wrong with them)."""
from nova.compute import maintenance

_time = {'type': 'string', 'minLength': 1, 'maxLength': 64}
_reason = {'type': ['string', 'null'], 'maxLength': 255}
_impact = {'type': 'string', 'enum': list(maintenance.IMPACTS)}

create = {
    'type': 'object',
    'properties': {'maintenance': {
        'type': 'object',
        'properties': {
            'host': {'type': 'string', 'minLength': 1, 'maxLength': 255},
            'start': _time, 'end': _time, 'reason': _reason, 'impact': _impact},
        'required': ['host', 'start', 'end'],
        'additionalProperties': False}},
    'required': ['maintenance'],
    'additionalProperties': False,
}

update = {
    'type': 'object',
    'properties': {'maintenance': {
        'type': 'object',
        'properties': {'start': _time, 'end': _time, 'reason': _reason, 'impact': _impact},
        'minProperties': 1,
        'additionalProperties': False}},
    'required': ['maintenance'],
    'additionalProperties': False,
}

list_query = {
    'host': {'type': 'string', 'minLength': 1, 'maxLength': 255},
}
index_query = {'type': 'object', 'properties': list_query, 'additionalProperties': True}

window_id = {'type': 'string', 'format': 'uuid'}

_window = {
    'type': 'object',
    'required': ['id', 'start', 'end', 'impact', 'state'],
    'properties': {
        'id': {'type': 'string', 'format': 'uuid'},
        'host': {'type': 'string'},
        'reason': {'type': 'string'},
        'start': {'type': 'string'}, 'end': {'type': 'string'},
        'impact': _impact,
        'state': {'enum': list(maintenance.STATES)},
        'hostId': {'type': 'string'},
        'servers': {'type': 'array', 'items': {'type': 'string', 'format': 'uuid'}},
        'created_at': {'type': 'string'}, 'updated_at': {'type': 'string'}},
}
show_response = {'type': 'object', 'required': ['maintenance'],
                 'properties': {'maintenance': _window}}
list_response = {'type': 'object', 'required': ['maintenances'],
                 'properties': {'maintenances': {'type': 'array', 'items': _window}}}
