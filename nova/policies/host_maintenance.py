from oslo_policy import policy

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


def _rule(name, check_str, description, operations):
    return policy.DocumentedRuleDefault(
        name=name, check_str=check_str, description=description,
        operations=[{'method': m, 'path': p} for m, p in operations],
        scope_types=['project'])


rules = [
    _rule(LIST, base.PROJECT_READER_OR_ADMIN,
          'List maintenance windows. Unless ' + ALL + ' allows, only the windows of '
          'hosts running servers of the project, with those servers, their hostId, '
          'times and impact: never host names or reasons.', [('GET', COLLECTION)]),
    _rule(SHOW, base.PROJECT_READER_OR_ADMIN,
          'Show a maintenance window (as ' + LIST + ' shows it).', [('GET', ITEM)]),
    _rule(ALL, base.ADMIN_API,
          'See every maintenance window with its host and reason.',
          [('GET', COLLECTION), ('GET', ITEM)]),
    _rule(CREATE, base.ADMIN_API, 'Schedule a maintenance window on a compute host.',
          [('POST', COLLECTION)]),
    _rule(UPDATE, base.ADMIN_API, 'Change a maintenance window before it ends.',
          [('PUT', ITEM)]),
    _rule(DELETE, base.ADMIN_API, 'Cancel a maintenance window before it starts.',
          [('DELETE', ITEM)]),
]


def list_rules():
    return rules
