"""Storage of the host-status watcher: its lease, the announced state of
every compute service and the transitions (the feed and the notifications
read them).

Only the lease holder writes states and events, and it renews the lease in
the same transaction (a conditional UPDATE judged on the database clock),
so a watcher that lost its lease while paused writes nothing, transitions
are stored once, and event ids are committed in increasing order: a reader
paging by id never skips one.
"""
import datetime
import uuid as uuidlib

import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova.db import engine
from nova.db import evacuations
from nova.db.dbtime import db_now, seconds_since
from nova.db.models import host_status_events as events
from nova.db.models import host_status_leases as leases
from nova.db.models import host_status_states as states
from nova.db.models import COMPUTE_BINARY, instances, migrations

LEASE_NAME = 'host-status-watcher'
# Not a transition: a row asking the deliverer for Nova's service.update of
# one service, stored in the transaction that changed the service (an
# operator's os-services call, a maintenance window), so the notification
# is sent at least once and never for a change rolled back. The feed never
# shows these rows.
SERVICE_UPDATE = 'service.update'
# Not a service's transition either: an evacuation moved one server
# (instance_uuid) to ``host``, so it reads that host's status now; only the
# per-server view and instance.host_status.update show these rows.
EVACUATED = 'evacuated'
# a change of any of these columns is one Nova announces with service.update
SERVICE_UPDATE_FIELDS = frozenset(('disabled', 'disabled_reason', 'forced_down'))
# the rows that are a service's transitions (not service.update requests,
# not one server's move); told apart by reason, which no index covers: an
# ``instance_uuid IS NULL`` test made SQLite read the events by that index
# first and look up the project's servers for each
TRANSITIONS = events.c.reason.notin_((SERVICE_UPDATE, EVACUATED))
# what a server's feed shows: its host's transitions and its own moves
SERVER_EVENTS = events.c.reason != SERVICE_UPDATE


# ------------------------------------------------------------------- lease

def _ensure_lease_row():
    try:
        with engine.writer() as conn:
            conn.execute(sa.insert(leases).values(name=LEASE_NAME))
    except db_exc.DBDuplicateEntry:
        pass


def _hold(conn, holder, ttl):
    """Take or renew the lease inside ``conn``'s transaction: True when
    ``holder`` has it for ``ttl`` more seconds of database time."""
    query = (
        sa.update(leases)
        .where(leases.c.name == LEASE_NAME,
               sa.or_(leases.c.holder == holder, leases.c.holder.is_(None),
                      leases.c.renewed_at.is_(None),
                      seconds_since(leases.c.renewed_at) > leases.c.ttl))
        # MySQL assigns left to right, each seeing the ones before it:
        # acquired_at must look at the holder before it changes.
        .ordered_values(
            (leases.c.acquired_at, sa.case((leases.c.holder == holder, leases.c.acquired_at),
                                           else_=db_now())),
            (leases.c.holder, holder),
            (leases.c.renewed_at, db_now()),
            (leases.c.ttl, ttl)))
    return conn.execute(query).rowcount == 1


def hold_lease(holder, ttl):
    """One attempt to take or renew the lease; True when held."""
    with engine.writer() as conn:
        if _hold(conn, holder, ttl):
            return True
    _ensure_lease_row()
    with engine.writer() as conn:
        return _hold(conn, holder, ttl)


def release_lease(holder):
    """Give the lease up at once (a clean stop), if ``holder`` has it."""
    with engine.writer() as conn:
        conn.execute(sa.update(leases).where(
            leases.c.name == LEASE_NAME, leases.c.holder == holder).values(holder=None))


def lease():
    """The lease row with the database's time as ``db_now``, or None."""
    with engine.reader() as conn:
        return conn.execute(sa.select(leases, db_now().label('db_now')).where(
            leases.c.name == LEASE_NAME)).mappings().first()


# ------------------------------------------------------------- transitions

def _event(conn, **values):
    uuid = str(uuidlib.uuid4())
    conn.execute(sa.insert(events).values(uuid=uuid, at=db_now(), **values))
    return uuid


def request_service_update(conn, host, binary):
    """Ask for service.update of (host, binary), in ``conn``'s transaction."""
    _event(conn, host=host, binary=binary, reason=SERVICE_UPDATE)


def record_states(holder, ttl, current, reason, apply=None):
    """Compare ``current`` ({(host, binary): (State, last_seen_up)}) with the
    stored states and store one event per service that differs, with the
    new state, in one transaction. ``reason(old, new)`` names a change
    (old a (status, liveness, admin_state) tuple, new a State; either may
    be None) or returns None for no change. ``apply(conn)``, called first
    in that transaction, makes changes of its own (a maintenance window's
    start or end) and returns (announce, changed): ``announce``
    ({(host, binary): reason}) stores an event with that reason for a live
    service, even when its state did not change; ``changed`` replaces
    entries of ``current`` that it changed. Every finished evacuation not
    announced yet then stores an EVACUATED event for its server
    (_announce_moves). Returns the new events' uuids, or
    None when ``holder`` no longer has the lease (nothing written)."""
    created = []
    with engine.writer() as conn:
        if not _hold(conn, holder, ttl):
            return None
        announce = {}
        if apply is not None:
            announce, changed = apply(conn)
            current = {**current, **changed}
        stored = {(r.host, r.binary): r for r in conn.execute(sa.select(states))}
        for key in sorted(set(stored) | set(current)):
            old_row = stored.get(key)
            old = None if old_row is None else (old_row.status, old_row.liveness,
                                                old_row.admin_state)
            new, last_seen_up = current.get(key, (None, None))
            why = reason(old, new)
            if key in announce and new is not None:
                why = announce[key]
            if why is None:
                continue
            host, binary = key
            created.append(_event(
                conn, host=host, binary=binary, reason=why, last_seen_up=last_seen_up,
                old_status=old[0] if old else '', old_liveness=old[1] if old else None,
                old_admin_state=old[2] if old else None,
                new_status=new.status if new else '',
                liveness=new.liveness if new else None,
                admin_state=new.admin_state if new else None))
            if new is None:
                conn.execute(sa.delete(states).where(states.c.id == old_row.id))
            elif old_row is None:
                conn.execute(sa.insert(states).values(
                    host=host, binary=binary, status=new.status, liveness=new.liveness,
                    admin_state=new.admin_state, since=db_now()))
            else:
                conn.execute(sa.update(states).where(states.c.id == old_row.id).values(
                    status=new.status, liveness=new.liveness,
                    admin_state=new.admin_state, since=db_now()))
        created.extend(_announce_moves(conn, current))
    return created


def _announce_moves(conn, current):
    """One event per server that a finished evacuation moved, once, in
    ``conn``'s transaction after this look's transitions: the status of its
    former host becomes the one of its new host (both from ``current``).
    The migration keeps the event's id: events before it were its former
    host's for the server (_there_then)."""
    def state_of(host):
        new, last_seen_up = current.get((host, COMPUTE_BINARY), (None, None))
        return (('', None, None) if new is None else tuple(new)), last_seen_up

    moves = conn.execute(
        sa.select(migrations.c.id, migrations.c.instance_uuid, migrations.c.source_compute,
                  migrations.c.dest_compute)
        .where(migrations.c.host_status_event_id.is_(None),
               migrations.c.status.in_(evacuations.MOVED),
               migrations.c.migration_type == evacuations.EVACUATION)
        .order_by(migrations.c.id)).all()
    created = []
    for move in moves:
        (old_status, old_liveness, old_admin_state), _ = state_of(move.source_compute)
        (new_status, liveness, admin_state), last_seen_up = state_of(move.dest_compute)
        uuid = str(uuidlib.uuid4())
        event_id = conn.execute(sa.insert(events).values(
            uuid=uuid, at=db_now(), host=move.dest_compute, binary=COMPUTE_BINARY,
            instance_uuid=move.instance_uuid, reason=EVACUATED, last_seen_up=last_seen_up,
            old_status=old_status, old_liveness=old_liveness,
            old_admin_state=old_admin_state, new_status=new_status, liveness=liveness,
            admin_state=admin_state)).inserted_primary_key[0]
        conn.execute(sa.update(migrations).where(migrations.c.id == move.id)
                     .values(host_status_event_id=event_id))
        created.append(uuid)
    return created


def record_liveness(holder, ttl, available, reason):
    """Remember whether the liveness backend answers; on a change store
    one event with ``reason`` (no service fields) and return its uuid.
    Returns '' when nothing changed, None without the lease."""
    with engine.writer() as conn:
        if not _hold(conn, holder, ttl):
            return None
        since = conn.scalar(sa.select(leases.c.liveness_unavailable_since).where(
            leases.c.name == LEASE_NAME))
        if (since is None) == available:
            return ''
        conn.execute(sa.update(leases).where(leases.c.name == LEASE_NAME).values(
            liveness_unavailable_since=None if available else db_now()))
        return _event(conn, reason=reason)


def undelivered(limit=100):
    """The oldest events not yet handed to the notifier, oldest first."""
    with engine.reader() as conn:
        return conn.execute(
            sa.select(events).where(events.c.delivered_at.is_(None))
            .order_by(events.c.id).limit(limit)).mappings().all()


def mark_delivered(event_id):
    """Stamp the event delivered; returns that time (the database's)."""
    with engine.writer() as conn:
        now = conn.scalar(sa.select(db_now()))
        conn.execute(sa.update(events).where(events.c.id == event_id)
                     .values(delivered_at=now))
    return now


def _moved_after(event_table):
    """Finished evacuations announced after the event, or not announced yet
    (until its own event, a server reads its former host's status)."""
    return sa.and_(migrations.c.status.in_(evacuations.MOVED),
                   migrations.c.migration_type == evacuations.EVACUATION,
                   sa.or_(migrations.c.host_status_event_id.is_(None),
                          migrations.c.host_status_event_id > event_table.c.id))


def _there_then(event_table):
    """Whether a server was on the event's host when it happened: it has no
    move after the event and is there now, or the first of its moves after
    the event left that host. The first test is one index probe and decides
    for every server that never moved."""
    later = _moved_after(event_table)
    no_later_move = ~(sa.exists().where(migrations.c.instance_uuid == instances.c.uuid, later)
                      .correlate(instances, event_table))
    first_later_source = (
        sa.select(migrations.c.source_compute)
        .where(migrations.c.instance_uuid == instances.c.uuid, later)
        .order_by(migrations.c.host_status_event_id.is_(None),
                  migrations.c.host_status_event_id, migrations.c.id)
        .limit(1).correlate(instances, event_table).scalar_subquery())
    return sa.or_(sa.and_(no_later_move, instances.c.host == event_table.c.host),
                  first_later_source == event_table.c.host)


def servers_of(event_id):
    """(uuid, project_id, user_id) of the servers an event concerns."""
    query = _event_servers(events.c.id == event_id)
    with engine.reader() as conn:
        return conn.execute(
            sa.select(query.c.server_id.label('uuid'), query.c.project_id, query.c.user_id)
            .order_by(query.c.server_row)).mappings().all()


def prune(retention_seconds):
    """Delete events older than the retention, on the database clock."""
    with engine.writer() as conn:
        cutoff = conn.scalar(sa.select(db_now())) - datetime.timedelta(
            seconds=retention_seconds)
        return conn.execute(sa.delete(events).where(events.c.at < cutoff)).rowcount


# -------------------------------------------------------------------- feed

def feed_bounds():
    """(largest event id or 0, the database's time)."""
    with engine.reader() as conn:
        row = conn.execute(sa.select(sa.func.max(events.c.id), db_now())).one()
        return row[0] or 0, row[1]


def latest_id():
    with engine.reader() as conn:
        return conn.scalar(sa.select(sa.func.max(events.c.id))) or 0


_EVENT_COLUMNS = (events.c.id, events.c.uuid, events.c.host, events.c.old_status,
                  events.c.new_status, events.c.liveness, events.c.admin_state,
                  events.c.reason, events.c.at)


def service_page(after_id, limit):
    """Service-level events after ``after_id``, oldest first."""
    with engine.reader() as conn:
        return conn.execute(
            sa.select(*_EVENT_COLUMNS).where(events.c.id > after_id, TRANSITIONS)
            .order_by(events.c.id).limit(limit)).mappings().all()


def server_page(after, limit, project_id=None, server_id=None):
    """Per-server events after ``after`` = (event id, server row id), oldest
    first: one row per (event, server it concerns), optionally only
    ``project_id``'s servers or the server ``server_id``. Each row adds
    ``server_id``, ``project_id`` and ``server_row`` (the cursor's part)."""
    where = [sa.tuple_(events.c.id, instances.c.id) > sa.tuple_(*after)]
    if project_id is not None:
        where.append(instances.c.project_id == project_id)
    if server_id is not None:
        where.append(instances.c.uuid == server_id)
    query = _event_servers(*where)
    with engine.reader() as conn:
        return conn.execute(
            sa.select(*(query.c[column.name] for column in _EVENT_COLUMNS),
                      query.c.server_id, query.c.project_id, query.c.server_row)
            .order_by(query.c.id, query.c.server_row).limit(limit)).mappings().all()


def _event_servers(*where):
    """The (event, server) pairs of the per-server view matching ``where``,
    as a subquery: a server's own moves, and each transition of a host with
    the servers on it then: created before it, not deleted before it, and
    there (the servers' rows and their evacuations say where each was;
    placement is never stored per event). Three branches, each found by an
    index."""
    there_then = (TRANSITIONS,
                  _there_then(events),
                  instances.c.created_at <= events.c.at,
                  sa.or_(instances.c.deleted == 0, instances.c.deleted_at > events.c.at))
    # the servers on the host now, those that left it after the event, and
    # each server's own moves
    still_there = events.join(instances, instances.c.host == events.c.host)
    left_later = (migrations.join(events, sa.and_(
        events.c.host == migrations.c.source_compute, _moved_after(events)))
        .join(instances, sa.and_(instances.c.uuid == migrations.c.instance_uuid,
                                 # back on it: still_there's
                                 instances.c.host != events.c.host)))
    own_moves = events.join(instances, instances.c.uuid == events.c.instance_uuid)
    branches = []
    for joined, conditions in ((still_there, there_then), (left_later, there_then),
                               (own_moves, ())):
        branch = (sa.select(*_EVENT_COLUMNS, instances.c.uuid.label('server_id'),
                            instances.c.project_id, instances.c.user_id,
                            instances.c.id.label('server_row'))
                  .select_from(joined).where(SERVER_EVENTS, *conditions, *where))
        if joined is left_later:
            branch = branch.distinct()    # several later moves away from one host
        branches.append(branch)
    return sa.union_all(*branches).subquery()


# ------------------------------------------------------------ host monitor

SENT = 'sent'             # Masakari accepted the notification
REFUSED = 'refused'       # Masakari answered 4xx (on maintenance, duplicate, unknown host)
COVERED = 'covered'       # this outage was already notified (UNKNOWN, then DOWN)


def _outage_starts(conn, statuses):
    """The event that began each compute service's current ``statuses``
    state (the latest one whose old status differed), unsettled only, with
    its age on the database clock as ``age``."""
    earlier = events.alias('earlier')
    start = (sa.select(sa.func.max(earlier.c.id)).where(
        earlier.c.host == states.c.host, earlier.c.binary == states.c.binary,
        earlier.c.old_status != states.c.status, earlier.c.reason != EVACUATED)
        .correlate(states).scalar_subquery())
    return conn.execute(
        sa.select(events, seconds_since(events.c.at).label('age'),
                  states.c.status.label('current_status'))
        .select_from(states.join(events, events.c.id == start))
        .where(states.c.status.in_(statuses), events.c.host_monitor_at.is_(None))
        .order_by(events.c.id)).mappings().all()


def host_monitor_pending(holder, ttl, statuses):
    """Transitions to one of ``statuses`` that are still the service's
    state and not settled yet, oldest first; None when ``holder`` no
    longer has the lease (nothing to send then)."""
    with engine.writer() as conn:
        if not _hold(conn, holder, ttl):
            return None
        return _outage_starts(conn, statuses)


def notified_since(event, status):
    """Whether a notification was sent for ``event``'s service since it last
    became ``status`` (UP: an UNKNOWN notified, then the fence's DOWN, are
    one outage)."""
    with engine.reader() as conn:
        became = events.alias('became')
        last_up = sa.select(sa.func.coalesce(sa.func.max(became.c.id), 0)).where(
            became.c.host == event['host'], became.c.binary == event['binary'],
            became.c.id < event['id'], became.c.new_status == status,
            became.c.reason != EVACUATED).scalar_subquery()
        return conn.scalar(sa.select(sa.func.count()).select_from(events).where(
            events.c.host == event['host'], events.c.binary == event['binary'],
            events.c.id < event['id'], events.c.id > last_up,
            events.c.host_monitor_result == SENT)) > 0


def settle_host_monitor(holder, ttl, event_id, result):
    """Record how ``event_id`` was settled, once: False when it already was
    or ``holder`` lost the lease."""
    with engine.writer() as conn:
        if not _hold(conn, holder, ttl):
            return False
        return conn.execute(
            sa.update(events).where(events.c.id == event_id,
                                    events.c.host_monitor_at.is_(None))
            .values(host_monitor_at=db_now(), host_monitor_result=result)).rowcount == 1


def in_status_for(status, seconds):
    """(host, binary) of the services whose announced status has been
    ``status`` for at least ``seconds``."""
    with engine.reader() as conn:
        return [tuple(row) for row in conn.execute(
            sa.select(states.c.host, states.c.binary).where(
                states.c.status == status, seconds_since(states.c.since) >= seconds))]
