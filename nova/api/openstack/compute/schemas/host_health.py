"""Response of GET /servers/{server_id}/host-health."""
from nova.compute import maintenance

_window = {
    'type': ['object', 'null'],
    'required': ['id', 'start', 'end', 'impact', 'state'],
    'properties': {
        'id': {'type': 'string', 'format': 'uuid'},
        'start': {'type': 'string'}, 'end': {'type': 'string'},
        'impact': {'enum': list(maintenance.IMPACTS)},
        'state': {'enum': list(maintenance.STATES)},
        'reason': {'type': 'string'}},
}
show_response = {'type': 'object', 'required': ['host_health'], 'properties': {
    'host_health': {
        'type': 'object',
        'required': ['status', 'since', 'liveness', 'admin_state', 'maintenance'],
        'properties': {
            'status': {'enum': ['UP', 'DOWN', 'MAINTENANCE', 'NEEDS_MAINTENANCE',
                                'UNKNOWN', '']},
            'since': {'type': ['string', 'null']},
            'liveness': {'enum': ['up', 'stale', 'never-reported', 'no-host']},
            'admin_state': {'enum': ['enabled', 'disabled', 'forced-down', None]},
            'maintenance': _window,
            'host': {'type': ['string', 'null']},
            'disabled_reason': {'type': ['string', 'null']},
            'heartbeat_age': {'type': ['number', 'null']}}}}}
