"""What a compute service's state is, and what to call a change of it.

Pure functions: the watcher (nova/notifications/host_status_watcher.py) feeds them
service rows and the servicegroup's answer, the database stores what they
decide (nova/db/host_status_events.py).
"""
import collections

from nova.compute import host_status as hs

UP = 'up'
STALE = 'stale'
ENABLED = 'enabled'
DISABLED = 'disabled'
FORCED_DOWN = 'forced-down'

# Reasons, in the order they are chosen when several things changed at once:
# the operator's act explains the rest (forcing down also stops liveness).
REGISTERED = 'registered'                 # first seen (old_status "")
REMOVED = 'removed'                       # service row gone (new_status "")
FORCED_DOWN_REASON = 'forced_down'
FORCED_UP = 'forced_up'
DISABLED_REASON = 'disabled'
ENABLED_REASON = 'enabled'
HEARTBEAT_STALE = 'heartbeat_stale'
HEARTBEAT_RESUMED = 'heartbeat_resumed'
# a liveness-backend outage: one event each way, no service fields
LIVENESS_UNAVAILABLE = 'liveness_unavailable'
LIVENESS_RESTORED = 'liveness_restored'
# a planned maintenance window began or ended (the watcher disabled or
# enabled the service, or found it already as the window needs it)
MAINTENANCE_STARTED = 'maintenance_started'
MAINTENANCE_ENDED = 'maintenance_ended'

REASONS = (REGISTERED, REMOVED, FORCED_DOWN_REASON, FORCED_UP, DISABLED_REASON,
           ENABLED_REASON, HEARTBEAT_STALE, HEARTBEAT_RESUMED, LIVENESS_UNAVAILABLE,
           LIVENESS_RESTORED, MAINTENANCE_STARTED, MAINTENANCE_ENDED)

State = collections.namedtuple('State', 'status liveness admin_state')


def admin_state(service):
    if service['forced_down']:
        return FORCED_DOWN
    return DISABLED if service['disabled'] else ENABLED


def state(service, alive):
    """The State of one live service row, ``alive`` as the servicegroup
    says. A forced-down service is never alive for the servicegroup (the
    operator's fence), so its liveness reads stale."""
    return State(hs.host_status(service, alive), UP if alive else STALE,
                 admin_state(service))


def reason(old, new):
    """Why State ``old`` became ``new`` (either may be None: no service);
    None when nothing changed."""
    if old == new:
        return None
    if old is None:
        return REGISTERED
    if new is None:
        return REMOVED
    if old.admin_state != new.admin_state:
        if new.admin_state == FORCED_DOWN:
            return FORCED_DOWN_REASON
        if old.admin_state == FORCED_DOWN:
            return FORCED_UP
        return DISABLED_REASON if new.admin_state == DISABLED else ENABLED_REASON
    return HEARTBEAT_STALE if new.liveness == STALE else HEARTBEAT_RESUMED
