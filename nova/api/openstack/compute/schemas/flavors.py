"""Responses of /flavors (it takes no body and validates no query)."""

_flavor = {'type': 'object', 'required': ['id', 'name', 'links']}

list_response = {'type': 'object', 'required': ['flavors'],
                 'properties': {'flavors': {'type': 'array', 'items': _flavor}}}
show_response = {'type': 'object', 'required': ['flavor'],
                 'properties': {'flavor': _flavor}}
