"""The reads behind a server's host-health view: the host's live compute
service with the database's liveness verdict, its heartbeat age and when
its announced state last changed, and its current or next maintenance
window, in one read transaction."""
import sqlalchemy as sa

import nova.conf
from nova.db import engine
from nova.db import host_maintenance
from nova.db import host_status_events
from nova.db import liveness
from nova.db.models import host_maintenance_windows as windows
from nova.db.models import host_status_events as events
from nova.db.models import host_status_states as states
from nova.db.models import COMPUTE_BINARY, services

CONF = nova.conf.CONF


def read(host):
    """(service row or None, window row or None) of ``host``. The service
    row has host, binary, disabled, disabled_reason, forced_down,
    last_seen_up, is_up, heartbeat_age (seconds, database clock) and
    since (the time of the host's last stored transition; the stored
    state's once the retention pruned its events; None before the watcher
    saw the host) and cancelled_at (when a window of the host was last
    cancelled, or None)."""
    last_event_at = (
        sa.select(events.c.at)
        .where(events.c.host == services.c.host, events.c.binary == services.c.binary,
               host_status_events.TRANSITIONS)
        .order_by(events.c.id.desc()).limit(1).scalar_subquery())
    cancelled_at = (
        sa.select(sa.func.max(windows.c.updated_at))
        .where(windows.c.host == services.c.host, windows.c.state == 'cancelled')
        .scalar_subquery())
    query = (
        sa.select(services.c.host, services.c.binary, services.c.disabled,
                  services.c.disabled_reason, services.c.forced_down,
                  services.c.last_seen_up, liveness.is_up(services).label('is_up'),
                  liveness.heartbeat_age(services).label('heartbeat_age'),
                  sa.func.coalesce(last_event_at, states.c.since).label('since'),
                  cancelled_at.label('cancelled_at'))
        .select_from(services.outerjoin(states, sa.and_(
            states.c.host == services.c.host, states.c.binary == services.c.binary)))
        .where(services.c.host == host, services.c.binary == COMPUTE_BINARY,
               services.c.deleted == 0))
    with engine.reader() as conn:
        service = conn.execute(query, {'service_down_time': CONF.service_down_time}
                               ).mappings().first()
        window = host_maintenance.current_or_next(conn, host)
    return service, window
