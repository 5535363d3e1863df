from oslo_policy import policy

from nova.policies import base

PREFIX = 'os_compute_api:os-host-status-events:%s'
LIST = PREFIX % 'list'
LIST_HOSTS = PREFIX % 'list:hosts'
PATH = '/os-host-status-events'

rules = [
    policy.DocumentedRuleDefault(
        name=LIST, check_str=base.PROJECT_READER_OR_ADMIN,
        description='List (and long-poll) the host status events of the servers of '
                    'the project: server id, hostId, statuses, never host names.',
        operations=[{'method': 'GET', 'path': PATH}], scope_types=['project']),
    policy.DocumentedRuleDefault(
        name=LIST_HOSTS, check_str=base.ADMIN_API,
        description='See the service-level host status events, with host names, '
                    'instead of the per-server events of one project.',
        operations=[{'method': 'GET', 'path': PATH}], scope_types=['project']),
]


def list_rules():
    return rules
