"""Request bodies of /servers at microversions 2.1-2.16."""

_name = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    # printable text without leading or trailing whitespace
    'pattern': r'^(?!\s)[^\x00-\x1f\x7f]*(?<!\s)$',
}
_boolean = {'type': ['boolean', 'string'],
            'enum': [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES', 'Yes',
                     'yes', False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off',
                     'NO', 'No', 'no']}
_positive_int = {'type': ['integer', 'string'], 'pattern': '^[0-9]*$', 'minimum': 1,
                 'minLength': 1}
_metadata = {
    'type': 'object',
    'patternProperties': {'^[a-zA-Z0-9-_:. ]{1,255}$': {'type': 'string', 'maxLength': 255}},
    'additionalProperties': False,
}
_hints = {'type': 'object', 'additionalProperties': True}

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
                    'properties': {'fixed_ip': {'type': 'string'},
                                   'port': {'type': ['string', 'null']},
                                   'uuid': {'type': 'string'},
                                   'tag': {'type': 'string'}},
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
                'config_drive': _boolean,
                'key_name': {'type': 'string', 'minLength': 1, 'maxLength': 255},
                'min_count': _positive_int,
                'max_count': _positive_int,
                'return_reservation_id': _boolean,
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
create_response = {'type': 'object', 'properties': {
    'server': {'type': 'object', 'required': ['id', 'links', 'adminPass']},
    'reservation_id': _string}}
