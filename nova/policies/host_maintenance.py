from nova.policies import base

PREFIX = 'os_compute_api:os-host-maintenance:%s'
LIST = PREFIX % 'list'
SHOW = PREFIX % 'show'
ALL = PREFIX % 'all'
CREATE = PREFIX % 'create'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'
COLLECTION = '/os-host-maintenance'
ITEM = '/os-host-maintenance/{maintenance_id}'


rules = [
    base.rule(LIST, base.PROJECT_READER_OR_ADMIN,
              'List maintenance windows. Unless ' + ALL + ' allows, only the windows of '
              'hosts running servers of the project, with those servers, their hostId, '
              'times and impact: never host names or reasons.', ('GET', COLLECTION)),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show a maintenance window (as ' + LIST + ' shows it).', ('GET', ITEM)),
    base.rule(ALL, base.ADMIN_API, 'See every maintenance window with its host and reason.',
              ('GET', COLLECTION), ('GET', ITEM)),
    base.rule(CREATE, base.ADMIN_API, 'Schedule a maintenance window on a compute host.',
              ('POST', COLLECTION)),
    base.rule(UPDATE, base.ADMIN_API, 'Change a maintenance window before it ends.',
              ('PUT', ITEM)),
    base.rule(DELETE, base.ADMIN_API, 'Cancel a maintenance window before it starts.',
              ('DELETE', ITEM)),
]


def list_rules():
    return rules
