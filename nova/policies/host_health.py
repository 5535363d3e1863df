from nova.policies import base

SHOW = 'os_compute_api:servers:host_health'
SHOW_DETAILS = 'os_compute_api:servers:host_health:details'
PATH = '/servers/{server_id}/host-health'

rules = [
    base.rule(
        SHOW, base.PROJECT_READER_OR_ADMIN,
        'Show the health of a server\'s host: status (DOWN, UNKNOWN, '
        'MAINTENANCE, NEEDS_MAINTENANCE, UP or empty), since, liveness, '
        'admin_state and the current or next maintenance window. Tenants '
        'with servers on several hosts can correlate these to learn which '
        'servers share a host; set it to rule:admin_api to close that.',
        ('GET', PATH)),
    base.rule(
        SHOW_DETAILS, base.ADMIN_API,
        'Also show the host name, the disabled reason, the heartbeat '
        'age and the maintenance window\'s reason in the host health.',
        ('GET', PATH)),
]


def list_rules():
    return rules
