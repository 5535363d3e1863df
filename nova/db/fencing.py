"""What the fencing watcher stores: its steps and its brake as events of
the host-status feed (new reasons, no service fields changed), and the
force-down of a host whose fence was confirmed.

Each write renews the watcher lease in its own transaction, as every other
write of the watcher does: a watcher that lost the lease while an agent
ran forces nothing down (the next one fences again; powering off a host
that is off succeeds at once).
"""
import sqlalchemy as sa

from nova.db import engine
from nova.db import host_status_events as store
from nova.db.dbtime import db_now
from nova.db.models import host_status_events as events
from nova.db.models import services

# the reasons of the fencing events (nova/notifications/host_status_watcher.py
# names their notifications)
FENCE_REQUESTED = 'fence_requested'
FENCE_CONFIRMED = 'fence_confirmed'
FENCE_FAILED = 'fence_failed'
BRAKE_ENGAGED = 'fence_brake_engaged'
BRAKE_RELEASED = 'fence_brake_released'
FENCE_REASONS = (FENCE_REQUESTED, FENCE_CONFIRMED, FENCE_FAILED)
BRAKE_REASONS = (BRAKE_ENGAGED, BRAKE_RELEASED)
REASONS = FENCE_REASONS + BRAKE_REASONS


def record(holder, ttl, reason, host=None, binary=None):
    """Store one fencing event; its uuid, or None without the lease."""
    with engine.writer() as conn:
        if not store._hold(conn, holder, ttl):
            return None
        return store._event(conn, reason=reason, host=host, binary=binary)


def record_fenced(holder, ttl, host, binary, disabled_reason):
    """The fence of ``host`` is confirmed: force its service down and
    disable it with ``disabled_reason``, ask for its service.update, and
    store FENCE_CONFIRMED, in one transaction. False without the lease."""
    with engine.writer() as conn:
        if not store._hold(conn, holder, ttl):
            return False
        changed = conn.execute(
            sa.update(services)
            .where(services.c.host == host, services.c.binary == binary,
                   services.c.deleted == 0)
            .values(updated_at=db_now(), forced_down=True, disabled=True,
                    disabled_reason=disabled_reason)).rowcount
        if changed:
            store.request_service_update(conn, host, binary)
        store._event(conn, reason=FENCE_CONFIRMED, host=host, binary=binary)
        return True


def brake_engaged():
    """Whether the latest brake event stored engaged it (False: none yet)."""
    with engine.reader() as conn:
        reason = conn.scalar(
            sa.select(events.c.reason).where(events.c.reason.in_(BRAKE_REASONS))
            .order_by(events.c.id.desc()).limit(1))
    return reason == BRAKE_ENGAGED
