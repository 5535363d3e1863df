from oslo_policy import policy

from nova.policies import base

LIST = 'os_compute_api:os-services:list'
UPDATE = 'os_compute_api:os-services:update'
DELETE = 'os_compute_api:os-services:delete'

rules = [
    policy.DocumentedRuleDefault(
        name=LIST, check_str=base.ADMIN_API, description='List compute services',
        operations=[{'method': 'GET', 'path': '/os-services'}], scope_types=['project']),
    policy.DocumentedRuleDefault(
        name=UPDATE, check_str=base.ADMIN_API,
        description='Enable, disable or force down a compute service',
        operations=[{'method': 'PUT', 'path': '/os-services/{service_id}'},
                    {'method': 'PUT', 'path': '/os-services/enable'},
                    {'method': 'PUT', 'path': '/os-services/disable'},
                    {'method': 'PUT', 'path': '/os-services/disable-log-reason'},
                    {'method': 'PUT', 'path': '/os-services/force-down'}],
        scope_types=['project']),
    base.rule(DELETE, base.ADMIN, 'Delete a compute service',
              ('DELETE', '/os-services/{service_id}')),
]


def list_rules():
    return rules
