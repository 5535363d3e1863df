"""Request bodies of /servers, per microversion (Nova's ranges)."""
import copy
import functools
import unicodedata

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import parameter_types
from nova.api.openstack.compute.schemas.parameter_types import boolean

MAX_TAG_LENGTH = 60
MAX_TAGS = 50

_name = parameter_types.name
_positive_int = {'type': ['integer', 'string'], 'pattern': '^[0-9]*$', 'minimum': 1,
                 'minLength': 1}
_metadata = parameter_types.metadata()
# as Nova's: other hints are accepted (and ignored here); a group is a uuid
_hints = {'type': 'object', 'properties': {'group': {'type': 'string', 'format': 'uuid'}},
          'additionalProperties': True}

def _printable_ranges():
    """A regex character class of the printable characters of the Basic
    Multilingual Plane: no control or format characters, no line or
    paragraph separators (Nova's rule for descriptions)."""
    def printable(char):
        category = unicodedata.category(char)
        return not category.startswith('C') and (
            not category.startswith('Z') or category == 'Zs')
    ranges, start, last = [], None, None
    for code in range(0xFFFF):
        if printable(chr(code)):
            if start is None:
                start = code
            last = code
        elif start is not None:
            ranges.append((start, last))
            start = None
    if start is not None:
        ranges.append((start, last))
    return ''.join('\\u%04x' % a if a == b else '\\u%04x-\\u%04x' % (a, b)
                   for a, b in ranges)


description_pattern = '^[%s]*$' % _printable_ranges()
_description = {'type': ['string', 'null'], 'minLength': 0, 'maxLength': 255,
                'pattern': description_pattern}
# Nova's pattern (its faults quote it), and no NUL apart from it
tag = {'type': 'string', 'pattern': '^[^,/]*$', 'not': parameter_types.HOLDS_NUL,
       'minLength': 1, 'maxLength': MAX_TAG_LENGTH}
tags = {'type': 'array', 'items': tag, 'maxItems': MAX_TAGS}
_uuid = {'type': 'string', 'format': 'uuid'}
_ip_address = {'type': 'string', 'oneOf': [{'format': 'ipv4'}, {'format': 'ipv6'}]}

create = {
    'type': 'object',
    'properties': {
        'server': {
            'type': 'object',
            'properties': {
                'name': _name,
                'imageRef': {'type': 'string', 'maxLength': 255},
                'flavorRef': {'type': ['string', 'integer'], 'minLength': 1},
                'adminPass': {'type': 'string'},
                'metadata': _metadata,
                'networks': {'type': 'array', 'items': {
                    'type': 'object',
                    'properties': {'fixed_ip': _ip_address,
                                   'port': {'type': ['string', 'null'], 'format': 'uuid'},
                                   'uuid': {'type': 'string'}},
                    'additionalProperties': False}},
                'OS-DCF:diskConfig': {'type': 'string', 'enum': ['AUTO', 'MANUAL']},
                'accessIPv4': {'type': 'string', 'format': 'ipv4'},
                'accessIPv6': {'type': 'string', 'format': 'ipv6'},
                'personality': {'type': 'array', 'items': {
                    'type': 'object',
                    'properties': {'path': {'type': 'string'},
                                   'contents': {'type': 'string'}},
                    'additionalProperties': False}},
                'availability_zone': {'type': 'string', 'minLength': 1, 'maxLength': 255},
                'block_device_mapping': {'type': 'array', 'items': {'type': 'object'}},
                'block_device_mapping_v2': {'type': 'array', 'items': {'type': 'object'}},
                'config_drive': boolean,
                'key_name': {'type': 'string', 'minLength': 1, 'maxLength': 255},
                'min_count': _positive_int,
                'max_count': _positive_int,
                'return_reservation_id': boolean,
                'security_groups': {'type': 'array', 'items': {
                    'type': 'object',
                    'properties': {'name': {'type': 'string', 'minLength': 1,
                                            'maxLength': 255}},
                    'additionalProperties': False}},
                'user_data': {'type': 'string', 'format': 'base64', 'maxLength': 65535},
            },
            'required': ['name', 'flavorRef'],
            'additionalProperties': False,
        },
        'os:scheduler_hints': _hints,
        'OS-SCH-HNT:scheduler_hints': _hints,
    },
    'required': ['server'],
    'additionalProperties': False,
}



def _server_properties(schema):
    return schema['properties']['server']['properties']


def _network_list(with_tag):
    item = {'type': 'object',
            'properties': {'fixed_ip': _ip_address,
                           'port': {'type': ['string', 'null'], 'format': 'uuid'},
                           'uuid': _uuid},
            'additionalProperties': False}
    if with_tag:
        item['properties']['tag'] = tag
    return {'oneOf': [{'type': 'array', 'items': item},
                      {'type': 'string', 'enum': ['none', 'auto']}]}


# Each step of the create body, as Nova's (the history is in
# api_version_request): 2.19 description; 2.32 a network tag; 2.33-2.36
# a network tag still (Nova's 2.32-only intent was for block devices);
# 2.37 networks required, 'auto'/'none' or a list of uuids; 2.42 network
# tags again; 2.52 tags; 2.57 no personality; 2.63 trusted image
# certificates. Block device mappings are accepted and unused (no volumes
# are attached here): the controller refuses only a volume_type below 2.67.
create_v219 = copy.deepcopy(create)
_server_properties(create_v219)['description'] = _description
create_v232 = copy.deepcopy(create_v219)
_server_properties(create_v232)['networks']['items']['properties']['tag'] = tag
create_v237 = copy.deepcopy(create_v232)
create_v237['properties']['server']['required'].append('networks')
_server_properties(create_v237)['networks'] = _network_list(with_tag=False)
create_v242 = copy.deepcopy(create_v237)
_server_properties(create_v242)['networks'] = _network_list(with_tag=True)
create_v252 = copy.deepcopy(create_v242)
_server_properties(create_v252)['tags'] = tags
create_v257 = copy.deepcopy(create_v252)
del _server_properties(create_v257)['personality']
create_v263 = copy.deepcopy(create_v257)
_server_properties(create_v263)['trusted_image_certificates'] = {
    'type': ['array', 'null'], 'minItems': 1, 'maxItems': 50, 'uniqueItems': True,
    'items': {'type': 'string', 'minLength': 1}}

# (first version, schema), newest first
_CREATE = ((avr.TRUSTED_CERTS, create_v263), (avr.NO_PERSONALITY, create_v257),
           (avr.TAGS_ON_CREATE, create_v252), (avr.NETWORK_TAGS_RESTORED, create_v242),
           (avr.NETWORKS_REQUIRED, create_v237), (avr.NETWORK_TAGS, create_v232),
           (avr.SERVER_DESCRIPTION, create_v219), (avr.MIN_VERSION, create))

def _body(server_properties):
    return {'type': 'object',
            'properties': {'server': {'type': 'object', 'properties': server_properties,
                                      'additionalProperties': False}},
            'required': ['server'], 'additionalProperties': False}


update = _body({key: _server_properties(create)[key]
                for key in ('name', 'OS-DCF:diskConfig', 'accessIPv4', 'accessIPv6')})
update_v219 = copy.deepcopy(update)
_server_properties(update_v219)['description'] = _description
_UPDATE = ((avr.SERVER_DESCRIPTION, update_v219), (avr.MIN_VERSION, update))

update_all_tags = {'type': 'object', 'properties': {'tags': tags},
                   'required': ['tags'], 'additionalProperties': False}


create_for = functools.partial(validation.for_version, _CREATE)
update_for = functools.partial(validation.for_version, _UPDATE)

# Query strings: what Nova validates (anything else is ignored, as Nova
# ignores it; admin-only filters from others are dropped).
_string = {'type': 'string'}
list_query = {
    'limit': {'type': 'integer', 'minimum': 0},
    'marker': _string,
    'sort_key': _string,
    'sort_dir': {'type': 'string', 'enum': ['asc', 'desc']},
    'all_tenants': _string,
    'changes-since': {'type': 'string', 'format': 'date-time'},
    'name': _string, 'status': _string, 'image': _string, 'flavor': _string,
    'reservation_id': _string, 'user_id': _string, 'project_id': _string,
    'tenant_id': _string, 'host': _string, 'node': _string,
    # ours, from 2.16 (README "Beyond Nova"): there UP, DOWN, MAINTENANCE or
    # UNKNOWN, comma-separated; ignored below, as Nova ignores it
    'host_status': _string,
    # from 2.26, comma-separated
    'tags': _string, 'tags-any': _string, 'not-tags': _string, 'not-tags-any': _string,
}

# Responses: the shape every client relies on (tempest's schemas hold the rest).
_links = {'type': 'array', 'items': {'type': 'object', 'required': ['rel', 'href']}}
_basic = {'type': 'object', 'required': ['id', 'name', 'links'],
          'properties': {'id': _string, 'name': _string, 'links': _links}}
_detail = {'type': 'object', 'required': ['id', 'name', 'status', 'tenant_id', 'links'],
           'properties': {'id': _string, 'name': _string, 'status': _string,
                          'tenant_id': _string, 'links': _links,
                          'host_status': {'type': 'string', 'enum': [
                              'UP', 'DOWN', 'MAINTENANCE', 'UNKNOWN', '']}}}


def _page(server):
    return {'type': 'object', 'required': ['servers'],
            'properties': {'servers': {'type': 'array', 'items': server},
                           'servers_links': _links}}


list_response = _page(_basic)
detail_response = _page(_detail)
show_response = {'type': 'object', 'required': ['server'], 'properties': {'server': _detail}}
update_response = show_response
tags_response = {'type': 'object', 'required': ['tags'],
                 'properties': {'tags': {'type': 'array', 'items': tag}}}
create_response = {'type': 'object', 'properties': {
    'server': {'type': 'object', 'required': ['id', 'links', 'adminPass']},
    'reservation_id': _string}}
