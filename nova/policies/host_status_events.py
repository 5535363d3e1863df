from nova.policies import base

PREFIX = 'os_compute_api:os-host-status-events:%s'
LIST = PREFIX % 'list'
LIST_HOSTS = PREFIX % 'list:hosts'
PATH = '/os-host-status-events'

rules = [
    base.rule(
        LIST, base.PROJECT_READER_OR_ADMIN,
        'List (and long-poll) the host status events of the servers of '
        'the project: server id, hostId, statuses, never host names.',
        ('GET', PATH)),
    base.rule(
        LIST_HOSTS, base.ADMIN_API,
        'See the service-level host status events, with host names, '
        'instead of the per-server events of one project.',
        ('GET', PATH)),
]


def list_rules():
    return rules
