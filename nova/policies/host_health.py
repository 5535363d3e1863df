from oslo_policy import policy

from nova.policies import base

SHOW = 'os_compute_api:servers:host_health'
SHOW_DETAILS = 'os_compute_api:servers:host_health:details'
PATH = '/servers/{server_id}/host-health'

rules = [
    policy.DocumentedRuleDefault(
        name=SHOW, check_str=base.PROJECT_READER_OR_ADMIN,
        description='Show the health of a server\'s host: status (DOWN, UNKNOWN, '
                    'MAINTENANCE, NEEDS_MAINTENANCE, UP or empty), since, liveness, '
                    'admin_state and the current or next maintenance window. Tenants '
                    'with servers on several hosts can correlate these to learn which '
                    'servers share a host; set it to rule:admin_api to close that.',
        operations=[{'method': 'GET', 'path': PATH}], scope_types=['project']),
    policy.DocumentedRuleDefault(
        name=SHOW_DETAILS, check_str=base.ADMIN_API,
        description='Also show the host name, the disabled reason, the heartbeat '
                    'age and the maintenance window\'s reason in the host health.',
        operations=[{'method': 'GET', 'path': PATH}], scope_types=['project']),
]


def list_rules():
    return rules
