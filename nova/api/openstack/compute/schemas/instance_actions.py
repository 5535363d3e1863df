"""Query strings and responses of /servers/{id}/os-instance-actions: 2.58
pages (limit, marker, changes-since; other parameters refused), 2.66 adds
changes-before."""
from nova.api.openstack.compute.schemas import parameter_types as types

_string = {'type': 'string'}
_time = {'type': 'string', 'format': 'date-time'}
_null_time = {'type': ['string', 'null']}
list_query_v258 = {'limit': types.non_negative_integer, 'marker': _string,
                   'changes-since': _time}
list_query_v266 = dict(list_query_v258, **{'changes-before': _time})

_action = {
    'type': 'object',
    'required': ['action', 'instance_uuid', 'request_id', 'user_id', 'project_id',
                 'start_time', 'message'],
    'properties': {'action': _string, 'instance_uuid': _string, 'request_id': _string,
                   'user_id': _string, 'project_id': _string, 'start_time': _string,
                   'message': {'type': ['string', 'null']}, 'updated_at': _string},
}
_event = {
    'type': 'object', 'required': ['event', 'start_time', 'finish_time', 'result'],
    'properties': {'event': _string, 'start_time': _string, 'finish_time': _null_time,
                   'result': {'type': ['string', 'null']},
                   'traceback': {'type': ['string', 'null']}, 'host': _string,
                   'hostId': _string},
}
list_response = {'type': 'object', 'required': ['instanceActions'],
                 'properties': {'instanceActions': {'type': 'array', 'items': _action},
                                'links': {'type': 'array'}}}
show_response = {'type': 'object', 'required': ['instanceAction'],
                 'properties': {'instanceAction': dict(_action, properties=dict(
                     _action['properties'], events={'type': 'array', 'items': _event}))}}
