"""Query strings and responses of /flavors."""
from nova.compute import flavors

# What Nova validates in the list's query (anything else is ignored, as
# Nova ignores it below 2.75); minRam, minDisk and is_public are read by
# the controller, with Nova's own messages.
_string = {'type': 'string'}
index_query = {
    'limit': {'type': ['integer', 'string'], 'pattern': '^[0-9]*$', 'minimum': 0,
              'minLength': 1},
    'marker': _string,
    'is_public': _string,
    'minRam': _string,
    'minDisk': _string,
    'sort_key': {'type': 'string', 'enum': sorted(flavors.SORT_KEYS)},
    'sort_dir': {'type': 'string', 'enum': ['asc', 'desc']},
}

_links = {'type': 'array', 'items': {'type': 'object', 'required': ['rel', 'href']}}
_flavor = {'type': 'object', 'required': ['id', 'name', 'links']}

list_response = {'type': 'object', 'required': ['flavors'],
                 'properties': {'flavors': {'type': 'array', 'items': _flavor},
                                'flavors_links': _links}}
show_response = {'type': 'object', 'required': ['flavor'],
                 'properties': {'flavor': _flavor}}
