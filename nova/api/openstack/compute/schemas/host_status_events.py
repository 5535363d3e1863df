"""Query string of GET /os-host-status-events (each value as a string;
unknown parameters are ignored, as Nova does)."""

index_query = {
    'type': 'object',
    'properties': {
        'after': {'type': 'string', 'minLength': 1, 'maxLength': 128,
                  'pattern': '^[A-Za-z0-9_-]+={0,2}$'},
        # seconds, up to 25, fractions allowed
        'wait': {'type': 'string', 'pattern': r'^(25(\.0+)?|(1?[0-9]|2[0-4])(\.[0-9]+)?)$'},
        'limit': {'type': 'string', 'pattern': '^[0-9]{1,9}$'},
        'server_id': {'type': 'string', 'format': 'uuid'},
    },
    'additionalProperties': True,
}
