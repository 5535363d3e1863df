from nova.policies import base

PREFIX = 'os_compute_api:servers:%s'
INDEX = PREFIX % 'index'
DETAIL = PREFIX % 'detail'
INDEX_ALL_TENANTS = PREFIX % 'index:get_all_tenants'
DETAIL_ALL_TENANTS = PREFIX % 'detail:get_all_tenants'
ALLOW_ALL_FILTERS = PREFIX % 'allow_all_filters'
SHOW = PREFIX % 'show'
SHOW_HOST_STATUS = PREFIX % 'show:host_status'
SHOW_HOST_STATUS_UNKNOWN_ONLY = PREFIX % 'show:host_status:unknown-only'
CREATE = PREFIX % 'create'
UPDATE = PREFIX % 'update'
SHOW_FLAVOR_EXTRA_SPECS = PREFIX % 'show:flavor-extra-specs'
DELETE = PREFIX % 'delete'
STOP = PREFIX % 'stop'
START = PREFIX % 'start'
REBOOT = PREFIX % 'reboot'
ACTION_PATH = '/servers/{server_id}/action (%s)'
EXTENDED_ATTRIBUTES = 'os_compute_api:os-extended-server-attributes'


rules = [
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN, 'List servers', ('GET', '/servers')),
    base.rule(DETAIL, base.PROJECT_READER_OR_ADMIN, 'List servers with details',
              ('GET', '/servers/detail')),
    base.rule(INDEX_ALL_TENANTS, base.ADMIN_API, 'List servers of all projects',
              ('GET', '/servers')),
    base.rule(DETAIL_ALL_TENANTS, base.ADMIN_API, 'List servers of all projects with details',
              ('GET', '/servers/detail')),
    base.rule(ALLOW_ALL_FILTERS, base.ADMIN_API,
              'Filter the server list by admin-only keys such as host',
              ('GET', '/servers/detail')),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN, 'Show a server', ('GET', '/servers/{server_id}')),
    base.rule(SHOW_HOST_STATUS, base.ADMIN_API,
              'Show host_status (UP, DOWN, MAINTENANCE, UNKNOWN or empty) in a server '
              'and in the server list with details, from microversion 2.16. Granting '
              'it to tenants lets them infer the cloud topology from shared host '
              'failures.', ('GET', '/servers/{server_id}')),
    base.rule(SHOW_HOST_STATUS_UNKNOWN_ONLY, base.ADMIN_API,
              'Checked only when ' + SHOW_HOST_STATUS + ' denies: show host_status '
              'only when it is UNKNOWN (the host stopped reporting), hiding the '
              'other values.', ('GET', '/servers/{server_id}')),
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN, 'Create a server', ('POST', '/servers')),
    base.rule(UPDATE, base.PROJECT_MEMBER_OR_ADMIN, 'Update a server',
              ('PUT', '/servers/{server_id}')),
    base.rule(SHOW_FLAVOR_EXTRA_SPECS, base.PROJECT_READER_OR_ADMIN,
              'Starting with microversion 2.47, the flavor and its extra specs used '
              'for a server is also returned in the response when showing server '
              'details, updating a server or rebuilding a server.',
              ('GET', '/servers/detail'), ('GET', '/servers/{server_id}'),
              ('PUT', '/servers/{server_id}')),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN, 'Delete a server',
              ('DELETE', '/servers/{server_id}')),
    base.rule(STOP, base.PROJECT_MEMBER_OR_ADMIN, 'Stop a server',
              ('POST', ACTION_PATH % 'os-stop')),
    base.rule(START, base.PROJECT_MEMBER_OR_ADMIN, 'Start a server',
              ('POST', ACTION_PATH % 'os-start')),
    base.rule(REBOOT, base.PROJECT_MEMBER_OR_ADMIN, 'Reboot a server',
              ('POST', ACTION_PATH % 'reboot')),
    base.rule(EXTENDED_ATTRIBUTES, base.ADMIN_API,
              'Show OS-EXT-SRV-ATTR:* attributes of a server', ('GET', '/servers/{server_id}')),
]


def list_rules():
    return rules
