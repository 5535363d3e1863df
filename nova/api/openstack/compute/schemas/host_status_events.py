"""Query string of GET /os-host-status-events (each value as a string;
unknown parameters are ignored, as Nova does)."""

index_query = {
    'type': 'object',
    'properties': {
        'after': {'type': 'string', 'minLength': 1, 'maxLength': 128,
                  'pattern': '^[A-Za-z0-9_-]+={0,2}$'},
        # seconds, up to 25, fractions allowed
        'wait': {'type': 'string', 'pattern': r'^(25(\.0+)?|(1?[0-9]|2[0-4])(\.[0-9]+)?)$'},
        'limit': {'type': 'string', 'pattern': '^[1-9][0-9]{0,8}$'},
        'server_id': {'type': 'string', 'format': 'uuid'},
    },
    'additionalProperties': True,
}

_status = {'enum': ['UP', 'DOWN', 'MAINTENANCE', 'UNKNOWN', '', None]}
index_response = {'type': 'object', 'required': ['events', 'next'], 'properties': {
    'events': {'type': 'array', 'items': {
        'type': 'object',
        'required': ['id', 'old_status', 'new_status', 'liveness', 'admin_state', 'reason',
                     'at'],
        'properties': {
            'id': {'type': 'string', 'format': 'uuid'},
            'server_id': {'type': 'string', 'format': 'uuid'},
            'host': {'type': ['string', 'null']},
            'hostId': {'type': 'string'},
            'old_status': _status, 'new_status': _status,
            'liveness': {'enum': ['up', 'stale', None]},
            'admin_state': {'enum': ['enabled', 'disabled', 'forced-down', None]},
            'reason': {'type': 'string'},
            'at': {'type': 'string'}}}},
    'next': {'type': 'string'}}}
