"""Request bodies of PUT /os-services/{action}."""

_host_binary = {
    'host': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    'binary': {'type': 'string', 'minLength': 1, 'maxLength': 255},
}

service_update = {
    'type': 'object',
    'properties': dict(_host_binary, disabled_reason={
        'type': 'string', 'minLength': 1, 'maxLength': 255}),
    'required': ['host', 'binary'],
    'additionalProperties': False,
}

service_force_down = {
    'type': 'object',
    'properties': dict(_host_binary, forced_down={'type': 'boolean'}),
    'required': ['host', 'binary', 'forced_down'],
    'additionalProperties': False,
}

actions = ['enable', 'disable', 'disable-log-reason', 'force-down']
list_query = {'host': {'type': 'string'}, 'binary': {'type': 'string'}}
list_response = {'type': 'object', 'required': ['services'], 'properties': {
    'services': {'type': 'array', 'items': {
        'type': 'object', 'required': ['id', 'binary', 'host', 'status', 'state'],
        'properties': {'status': {'enum': ['enabled', 'disabled']},
                       'state': {'enum': ['up', 'down']}}}}}}
update_body = {'anyOf': [service_update, service_force_down]}
update_response = {'type': 'object', 'required': ['service']}
