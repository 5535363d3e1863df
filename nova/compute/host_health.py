"""A server's host health: the orthogonal truth about its host (status by
the health precedence, since when, liveness, the operator's state, the
current or next maintenance window), from one read and one liveness
question."""
import logging

from nova.compute import api as compute
from nova.compute import host_status as hs
from nova.compute import host_status_transitions as transitions
from nova.db import host_health as store
from nova import exception
from nova import servicegroup

LOG = logging.getLogger(__name__)


def health(context, uuid):
    """(server row, health dict) of the server ``uuid`` (InstanceNotFound
    for a server the caller's project does not own, as for the server).
    The dict has status, since, liveness, admin_state, maintenance (the
    window row or None) and, for the API to show admins only, host,
    disabled_reason and heartbeat_age."""
    row = compute.get(context, uuid)
    host = row['host']
    service, window = store.read(host) if host else (None, None)
    if service is None:
        return row, {'status': hs.NONE, 'since': None, 'liveness': hs.liveness(None, False),
                     'admin_state': None, 'maintenance': None, 'host': host,
                     'disabled_reason': None, 'heartbeat_age': None}
    try:
        alive = host in servicegroup.API().hosts_up({host: service})
    except exception.ServiceGroupUnavailable as exc:
        # as the legacy field: liveness unknown is not alive
        LOG.warning('liveness unavailable: %s', exc)
        alive = False
    status = hs.health_status(service, alive, window)
    # the transitions know the service's changes; a window's scheduling
    # and cancelling change the health status without one
    since = service['since']
    if since is not None and status == hs.NEEDS_MAINTENANCE:
        since = max(since, window['created_at'])
    elif since is not None and status == hs.UP and service['cancelled_at'] is not None:
        since = max(since, service['cancelled_at'])
    return row, {'status': status, 'since': since, 'liveness': hs.liveness(service, alive),
                 'admin_state': transitions.admin_state(service), 'maintenance': window,
                 'host': host, 'disabled_reason': service['disabled_reason'],
                 'heartbeat_age': service['heartbeat_age']}
