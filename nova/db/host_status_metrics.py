"""The reads behind the host-status watcher's metrics, made when
Prometheus scrapes (never per tick), in one read transaction."""
import collections

import sqlalchemy as sa

from nova.db import engine
from nova.db import host_maintenance
from nova.db.models import host_maintenance_windows as windows
from nova.db.models import host_status_events as events
from nova.db.models import host_status_states as states
from nova.db.models import instances

Counts = collections.namedtuple(
    'Counts', 'servers_by_host hosts_with_open_window windows_by_state undelivered')


def counts():
    """Servers per host ({host or None: n}, live servers only), the hosts
    with a scheduled or in-progress window, windows per state, events not
    yet delivered."""
    with engine.reader() as conn:
        servers = dict(conn.execute(
            sa.select(instances.c.host, sa.func.count())
            .where(instances.c.deleted == 0).group_by(instances.c.host)).all())
        hosts = set(conn.scalars(
            sa.select(windows.c.host).where(windows.c.state.in_(host_maintenance.OPEN))
            .distinct()))
        by_state = dict(conn.execute(
            sa.select(windows.c.state, sa.func.count()).group_by(windows.c.state)).all())
        undelivered = conn.scalar(
            sa.select(sa.func.count()).select_from(events)
            .where(events.c.delivered_at.is_(None)))
    return Counts(servers, hosts, by_state, undelivered)


def stored_statuses():
    """{host: host_status} as the watchers last stored it (compute services)."""
    with engine.reader() as conn:
        return dict(conn.execute(
            sa.select(states.c.host, states.c.status)
            .where(states.c.binary == host_maintenance.COMPUTE_BINARY)).all())
