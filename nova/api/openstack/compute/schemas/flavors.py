"""Query strings, request bodies and responses of /flavors."""
import copy
import functools

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import parameter_types as types
from nova.api.openstack.compute.schemas import servers as server_schemas
from nova.compute import flavors

# What Nova validates in the list's query (anything else is ignored, as
# Nova ignores it below 2.75); minRam, minDisk and is_public are read by
# the controller, with Nova's own messages.
_string = {'type': 'string'}
index_query = {
    'limit': types.non_negative_integer,
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

# POST /flavors at 2.1-2.54
create = {
    'type': 'object',
    'properties': {
        'flavor': {
            'type': 'object',
            'properties': {
                'name': types.name,
                # null or absent: a generated uuid
                'id': {'type': ['string', 'number', 'null'], 'minLength': 1, 'maxLength': 255,
                       'pattern': '^(?! )[a-zA-Z0-9. _-]+(?<! )$'},
                'ram': types.flavor_positive,
                'vcpus': types.flavor_positive,
                'disk': types.flavor_non_negative,
                'OS-FLV-EXT-DATA:ephemeral': types.flavor_non_negative,
                'swap': types.flavor_non_negative,
                'rxtx_factor': {'type': ['number', 'string'], 'pattern': r'^[0-9]+(\.[0-9]+)?$',
                                'minimum': 0, 'exclusiveMinimum': True,
                                'maximum': types.MAX_FLOAT},
                'os-flavor-access:is_public': types.boolean,
            },
            'required': ['name', 'ram', 'vcpus', 'disk'],
            'additionalProperties': False,
        },
    },
    'required': ['flavor'],
    'additionalProperties': False,
}

# 2.55: a description, printable text up to 65535 characters (Nova's: the
# column is TEXT), or null
description = {'type': ['string', 'null'], 'minLength': 0, 'maxLength': 65535,
               'pattern': server_schemas.description_pattern}
create_v255 = copy.deepcopy(create)
create_v255['properties']['flavor']['properties']['description'] = description

# PUT /flavors/{flavor_id} from 2.55: the description only, required
update = {
    'type': 'object',
    'properties': {
        'flavor': {
            'type': 'object',
            'properties': {'description': description},
            'required': ['description'],
            'additionalProperties': False,
        },
    },
    'required': ['flavor'],
    'additionalProperties': False,
}

_CREATE = ((avr.FLAVOR_DESCRIPTION, create_v255), (avr.MIN_VERSION, create))
create_for = functools.partial(validation.for_version, _CREATE)
