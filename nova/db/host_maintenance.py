"""Storage of planned maintenance windows: writes checked against the
other windows of the host, the watcher's start and end of due windows,
and the reads of the API, the health view and the scheduler.

Every write of a host's windows first UPDATEs that host's lock row, so the
overlap check and the write of two concurrent requests run one after the
other (the row lock on MariaDB and PostgreSQL, the write lock on SQLite).
Start and end are conditional UPDATEs of the window's state, in the
transaction that changes the service and stores the event announcing it
(the watcher's): two watchers never apply one twice, and a watcher dying
in between leaves neither.
Times are compared on the database's clock.
"""
import contextlib
import datetime
import uuid as uuidlib

import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova.db import engine
from nova.db import host_status_events as events
from nova.db import nul
from nova.db.dbtime import db_now
from nova.db.models import host_maintenance_locks as locks
from nova.db.models import host_maintenance_windows as windows
from nova.db.models import COMPUTE_BINARY, instances, services
from nova import exception

SCHEDULED = 'scheduled'
IN_PROGRESS = 'in-progress'
COMPLETED = 'completed'
CANCELLED = 'cancelled'
STATES = (SCHEDULED, IN_PROGRESS, COMPLETED, CANCELLED)
OPEN = (SCHEDULED, IN_PROGRESS)
# a finished window stays listed at least this long (tenants and
# operators look back a week), longer with a longer event retention
MIN_HISTORY_DAYS = 7


def service_reason(window_uuid):
    """The disabled_reason a window's start gives the service; its end
    enables the service again only while the reason is still this one."""
    return 'maintenance window %s' % window_uuid


def _live_compute(host):
    return sa.and_(services.c.host == host, services.c.binary == COMPUTE_BINARY,
                   services.c.deleted == 0)


@contextlib.contextmanager
def _host_locked(host):
    """A write transaction holding ``host``'s lock row."""
    try:
        with engine.writer() as conn:
            conn.execute(sa.insert(locks).values(host=host, writes=0))
    except db_exc.DBDuplicateEntry:
        pass
    with engine.writer() as conn:
        conn.execute(sa.update(locks).where(locks.c.host == host)
                     .values(writes=locks.c.writes + 1))
        yield conn


def _check_no_overlap(conn, host, start, end, exclude_id=None):
    query = sa.select(windows.c.uuid).where(
        windows.c.host == host, windows.c.state.in_(OPEN),
        windows.c.start_at < end, windows.c.end_at > start)
    if exclude_id is not None:
        query = query.where(windows.c.id != exclude_id)
    other = conn.scalar(query.limit(1))
    if other is not None:
        raise exception.MaintenanceWindowOverlap(other=other, host=host)


def create(host, start, end, reason, impact):
    """Store a scheduled window of ``host`` (naive UTC datetimes); returns
    its row. ComputeHostNotFound without a live compute service there,
    MaintenanceWindowOverlap when another open window overlaps it."""
    uuid = str(uuidlib.uuid4())
    with _host_locked(host) as conn:
        if conn.scalar(sa.select(services.c.id).where(_live_compute(host))) is None:
            raise exception.ComputeHostNotFound(host=host)
        _check_no_overlap(conn, host, start, end)
        conn.execute(sa.insert(windows).values(
            uuid=uuid, host=host, start_at=start, end_at=end, reason=reason,
            impact=impact, state=SCHEDULED, disabled_service=False,
            created_at=db_now(), updated_at=db_now()))
    return get(uuid)


def update(row, **values):
    """Change the window ``row`` (as read by get) if its state is still
    the one read; MaintenanceWindowNotEditable when it changed meanwhile,
    MaintenanceWindowOverlap as for create."""
    with _host_locked(row['host']) as conn:
        start = values.get('start_at', row['start_at'])
        end = values.get('end_at', row['end_at'])
        _check_no_overlap(conn, row['host'], start, end, exclude_id=row['id'])
        changed = conn.execute(
            sa.update(windows).where(windows.c.id == row['id'],
                                     windows.c.state == row['state'])
            .values(updated_at=db_now(), **values)).rowcount
        if not changed:
            raise exception.MaintenanceWindowNotEditable(
                window_id=row['uuid'], state='no longer %s' % row['state'],
                what='it changed meanwhile; read it again')
    return get(row['uuid'])


def cancel(uuid):
    """Cancel a scheduled window; NotFound or NotEditable otherwise."""
    if nul.in_any(uuid):
        raise exception.MaintenanceWindowNotFound(window_id=uuid)
    with engine.writer() as conn:
        done = conn.execute(
            sa.update(windows).where(windows.c.uuid == uuid, windows.c.state == SCHEDULED)
            .values(state=CANCELLED, updated_at=db_now())).rowcount
    if done:
        return
    row = get(uuid)
    if row is None:
        raise exception.MaintenanceWindowNotFound(window_id=uuid)
    raise exception.MaintenanceWindowNotEditable(
        window_id=uuid, state=row['state'],
        what='only a scheduled window can be cancelled (end one in progress by '
             'setting its end)')


# ------------------------------------------------------------------- reads

def get(uuid):
    if nul.in_any(uuid):
        return None
    with engine.reader() as conn:
        return conn.execute(sa.select(windows).where(windows.c.uuid == uuid)).mappings().first()


def list_all(host=None):
    """Every stored window, by start; optionally of one host."""
    if nul.in_any(host):
        return []
    query = sa.select(windows)
    if host is not None:
        query = query.where(windows.c.host == host)
    with engine.reader() as conn:
        return conn.execute(query.order_by(windows.c.start_at, windows.c.id)).mappings().all()


def list_for_project(project_id, uuid=None):
    """[(window row, [server uuid, ...])] of the current and future windows
    (scheduled or in progress) of hosts where ``project_id`` has live
    servers now, by start; optionally one window."""
    query = (sa.select(windows, instances.c.uuid.label('server_id'))
             .join(instances, instances.c.host == windows.c.host)
             .where(windows.c.state.in_(OPEN),
                    instances.c.project_id == project_id, instances.c.deleted == 0))
    if nul.in_any(uuid):
        return []
    if uuid is not None:
        query = query.where(windows.c.uuid == uuid)
    grouped = {}
    with engine.reader() as conn:
        for row in conn.execute(query.order_by(windows.c.start_at, windows.c.id,
                                               instances.c.id)).mappings():
            grouped.setdefault(row['id'], (row, []))[1].append(row['server_id'])
    return list(grouped.values())


def current_or_next(conn, host):
    """The open window of ``host`` that starts first (the current one
    while one is in progress), or None."""
    return conn.execute(
        sa.select(windows).where(windows.c.host == host, windows.c.state.in_(OPEN))
        .order_by(windows.c.start_at).limit(1)).mappings().first()


def hosts_starting_within(conn, seconds):
    """Hosts with an open window that starts within ``seconds`` from now
    on the database's clock (or has started)."""
    now = conn.scalar(sa.select(db_now()))
    soon = now + datetime.timedelta(seconds=seconds)
    return set(conn.scalars(
        sa.select(windows.c.host).where(windows.c.state.in_(OPEN),
                                        windows.c.start_at <= soon).distinct()))


# ----------------------------------------------------------------- watcher

def start_due(conn):
    """Start every scheduled window whose start has come, in ``conn``'s
    transaction (the watcher's, which stores the events of the same
    tick): disable its host's service with service_reason() unless it is
    disabled already. A window whose end has passed too (the watcher was
    away all along) completes without touching the service. Returns the
    started windows' rows."""
    started = []
    now = conn.scalar(sa.select(db_now()))
    for row in _due(conn, SCHEDULED, windows.c.start_at):
        ended = now >= row['end_at']
        claimed = conn.execute(
            sa.update(windows).where(windows.c.id == row['id'], windows.c.state == SCHEDULED)
            .values(state=COMPLETED if ended else IN_PROGRESS,
                    updated_at=db_now())).rowcount
        if not claimed or ended:
            continue
        disabled = conn.execute(
            sa.update(services).where(_live_compute(row['host']),
                                      services.c.disabled == sa.false())
            .values(disabled=True, disabled_reason=service_reason(row['uuid']),
                    updated_at=db_now())).rowcount
        if disabled:
            conn.execute(sa.update(windows).where(windows.c.id == row['id'])
                         .values(disabled_service=True))
            events.request_service_update(conn, row['host'], COMPUTE_BINARY)
        started.append(row)
    return started


def end_due(conn):
    """Complete every window in progress whose end has come, in ``conn``'s
    transaction, enabling its host's service again if the window disabled
    it and nobody changed the service since. Returns the ended windows'
    rows."""
    ended = []
    for row in _due(conn, IN_PROGRESS, windows.c.end_at):
        claimed = conn.execute(
            sa.update(windows).where(windows.c.id == row['id'],
                                     windows.c.state == IN_PROGRESS)
            .values(state=COMPLETED, updated_at=db_now())).rowcount
        if not claimed:
            continue
        if row['disabled_service'] and conn.execute(
                sa.update(services).where(
                    _live_compute(row['host']), services.c.disabled == sa.true(),
                    services.c.disabled_reason == service_reason(row['uuid']))
                .values(disabled=False, disabled_reason=None,
                        updated_at=db_now())).rowcount:
            events.request_service_update(conn, row['host'], COMPUTE_BINARY)
        ended.append(row)
    return ended


def _due(conn, state, at_column):
    return conn.execute(
        sa.select(windows).where(windows.c.state == state, at_column <= db_now())
        .order_by(at_column, windows.c.id)).mappings().all()


def prune(retention_seconds):
    """Delete finished windows that ended longer ago than the retention."""
    with engine.writer() as conn:
        cutoff = conn.scalar(sa.select(db_now())) - datetime.timedelta(
            seconds=retention_seconds)
        return conn.execute(sa.delete(windows).where(
            windows.c.state.in_((COMPLETED, CANCELLED)),
            windows.c.end_at < cutoff)).rowcount
