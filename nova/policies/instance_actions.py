from nova.policies import base

PREFIX = 'os_compute_api:os-instance-actions:%s'
LIST = PREFIX % 'list'
SHOW = PREFIX % 'show'
EVENTS = PREFIX % 'events'

# Nova's defaults: readers of the server's project list and show; events
# with their traceback (and from 2.62 their host) are administrators'
rules = [
    base.rule(LIST, base.PROJECT_READER_OR_ADMIN, 'List the actions of a server',
              ('GET', '/servers/{server_id}/os-instance-actions')),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN, 'Show an action of a server',
              ('GET', '/servers/{server_id}/os-instance-actions/{request_id}')),
    base.rule(EVENTS, base.ADMIN_API,
              "Show an action's events with their traceback (below 2.51, the events at "
              'all) and, from 2.62, their host',
              ('GET', '/servers/{server_id}/os-instance-actions/{request_id}')),
]


def list_rules():
    return rules
