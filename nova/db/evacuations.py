"""Evacuations in the migrations table: the destination compute's work
and the source compute's tombstone (as Nova's migration records).

Statuses, as Nova's: ``accepted`` (asked; the server is ``rebuilding``,
still on its source) -> ``pre-migrating`` (the destination claimed it and
the server moved there, before anything spawned) -> ``done`` (it runs
there) -> ``completed`` (the source, back, destroyed its copy). ``error``
(no valid host) and ``failed`` (superseded by a newer evacuation, reset,
deleted, refused at the claim, or its spawn failed: the server is back on
its source) end one without a finished move.

At most one evacuation of a server is open (accepted or pre-migrating):
``open_instance_uuid`` holds the server's uuid while it is, under a unique
constraint, and every write that ends one clears it (``_end``).
"""
import functools
import uuid as uuidlib

import sqlalchemy as sa

from nova.db import engine
from nova.db.dbtime import db_now
from nova.db.models import COMPUTE_BINARY, instance_faults, instances, migrations, services

EVACUATION = 'evacuation'
REBUILDING = 'rebuilding'
OPEN = ('accepted', 'pre-migrating')
# the server runs on the destination: it moved
MOVED = ('done', 'completed')
# what unforcing the source must wait for: a move not finished, or a copy
# the source has not destroyed yet
UNSETTLED = OPEN + ('done',)


def start(row, allowed_vm_states, dest_host, source_forced_down=False, record=None):
    """Record an evacuation of the server ``row`` from its host, in one
    transaction: the server ``rebuilding`` (vm_state one of
    ``allowed_vm_states``, still on the host it was read on), an open
    evacuation of it superseded (ended ``failed``, or ``done`` once claimed:
    its destination spawns nothing or destroys its copy), a migration ``accepted`` to ``dest_host``. With no
    ``dest_host`` (no valid host) the server goes to ERROR instead and the
    migration is ``error``, as Nova's conductor leaves them.

    ``source_forced_down``: the source was judged down because it is
    forced down, so it must still be, under the same lock (an unforce in
    between loses, or waits and sees this evacuation).

    ``record(conn)``, if given, writes what else the evacuation leaves
    (its instance action) in the same transaction, once it is accepted.

    Returns the migration's uuid, or None when the server or the source
    changed since they were read."""
    values = ({'task_state': REBUILDING} if dest_host
              else {'vm_state': 'error', 'task_state': None})
    migration_uuid = str(uuidlib.uuid4())
    with engine.writer() as conn:
        if source_forced_down and conn.execute(
                sa.update(services)
                .where(services.c.host == row['host'], services.c.binary == COMPUTE_BINARY,
                       services.c.deleted == 0, services.c.forced_down == sa.true())
                .values(forced_down=True)).rowcount != 1:
            return None
        claimed = conn.execute(
            sa.update(instances)
            .where(instances.c.uuid == row['uuid'], instances.c.deleted == 0,
                   instances.c.host == row['host'],
                   instances.c.vm_state.in_(allowed_vm_states))
            .values(updated_at=db_now(), **values)).rowcount
        if claimed != 1:
            return None
        end_open(conn, row['uuid'], claimed_ends='done')
        conn.execute(sa.insert(migrations).values(
            uuid=migration_uuid, instance_uuid=row['uuid'], migration_type=EVACUATION,
            source_compute=row['host'], source_node=row['node'], dest_compute=dest_host,
            status='accepted' if dest_host else 'error',
            open_instance_uuid=row['uuid'] if dest_host else None,
            old_vm_state=row['vm_state'], created_at=db_now(),
            # as Nova's: null until the first change; one that found no
            # host was accepted and then failed, a change
            updated_at=None if dest_host else db_now(), deleted=0))
        if record is not None:
            record(conn)
    return migration_uuid


def end_open(conn, instance_uuid, statuses=OPEN, claimed_ends='failed'):
    """End the server's open evacuation (in ``statuses``), in the caller's
    transaction: superseded, reset or deleted. One not claimed yet ends
    ``failed``; a claimed one ends ``claimed_ends``: a newer evacuation
    makes it ``done``, since it did move the server off its source, whose
    copy must still go (and keep that source forced down until it has)."""
    for status, ends in (('accepted', 'failed'), ('pre-migrating', claimed_ends)):
        if status in statuses:
            conn.execute(
                sa.update(migrations)
                .where(migrations.c.open_instance_uuid == instance_uuid,
                       migrations.c.status == status)
                .values(status=ends, open_instance_uuid=None, updated_at=db_now()))


def _end(conn, migration_id, expected, status):
    return conn.execute(
        sa.update(migrations)
        .where(migrations.c.id == migration_id, migrations.c.status.in_(expected))
        .values(status=status, updated_at=db_now(),
                open_instance_uuid=migrations.c.open_instance_uuid if status in OPEN
                else None)).rowcount == 1


def claim(migration, host, late_check=None):
    """The destination ``host`` takes the server before it spawns anything,
    in one transaction: the migration accepted -> pre-migrating, and the
    server moved here from the source it was evacuated from (still
    rebuilding, on that source, not deleted). True when it did; otherwise
    the migration is no longer open (superseded, reset, deleted: ended
    ``failed`` if it still was) and nothing must spawn.

    ``late_check(conn, instance_uuid, host)``, in the same transaction
    before the move, returns why the server may not come here (its server
    group's policy), or None: with a reason the migration ends ``failed``
    and the server goes to ERROR on its source with that fault, as Nova's
    destination leaves it when its late group check fails."""
    with engine.writer() as conn:
        if conn.execute(
                sa.update(migrations)
                .where(migrations.c.id == migration['id'],
                       migrations.c.status == 'accepted')
                .values(status='pre-migrating', dest_node=host,
                        updated_at=db_now())).rowcount != 1:
            return False
        reason = late_check(conn, migration['instance_uuid'], host) if late_check else None
        if reason is not None:
            _refused(conn, migration, host, reason)
            return False
        moved = conn.execute(
            sa.update(instances)
            .where(instances.c.uuid == migration['instance_uuid'], instances.c.deleted == 0,
                   instances.c.host == migration['source_compute'],
                   instances.c.task_state == REBUILDING)
            .values(host=host, node=host, updated_at=db_now())).rowcount == 1
        if not moved:
            _end(conn, migration['id'], ('pre-migrating',), 'failed')
    return moved


def _refused(conn, migration, host, reason):
    """The destination refused the server: the migration failed, the
    server in ERROR on its source (if still rebuilding there) with a
    fault saying why."""
    _end(conn, migration['id'], ('pre-migrating',), 'failed')
    if conn.execute(
            sa.update(instances)
            .where(instances.c.uuid == migration['instance_uuid'], instances.c.deleted == 0,
                   instances.c.host == migration['source_compute'],
                   instances.c.task_state == REBUILDING)
            .values(vm_state='error', task_state=None, updated_at=db_now())).rowcount:
        conn.execute(sa.insert(instance_faults).values(
            instance_uuid=migration['instance_uuid'], code=500,
            message='Build of instance %s aborted: %s' % (migration['instance_uuid'], reason),
            host=host, created_at=db_now(), deleted=0))


def finish(migration, host, rebuilt, settled):
    """The server runs on ``host``: the migration ``done`` and ``rebuilt``
    set (power state, launch time), in one transaction, while this
    migration is still the server's open one and the server is still here;
    ``settled`` (vm_state, task_state) only while it is still rebuilding,
    so a task asked since (a delete, a stop after a reset) is kept for this
    host to carry out. Otherwise (superseded, deleted) nothing changes and
    False is returned: the copy here must go."""
    with engine.writer() as conn:
        if not _end(conn, migration['id'], ('pre-migrating',), 'done'):
            return False
        here = sa.and_(instances.c.uuid == migration['instance_uuid'],
                       instances.c.deleted == 0, instances.c.host == host)
        moved = conn.execute(
            sa.update(instances).where(here, instances.c.task_state == REBUILDING)
            .values(updated_at=db_now(), **rebuilt, **settled)).rowcount == 1
        if not moved:
            moved = conn.execute(
                sa.update(instances).where(here)
                .values(updated_at=db_now(), **rebuilt)).rowcount == 1
        if not moved:
            _end(conn, migration['id'], ('done',), 'failed')
    return moved


def abandon(migration, host, record):
    """The destination ``host`` could not spawn the server it claimed: in
    one transaction, the migration ``failed`` and the server back on the
    source it was evacuated from, in ERROR with no task, while this
    migration is still pre-migrating and the server still rebuilding on
    ``host``; ``record(conn)`` then writes what the failure leaves (its
    fault). False when the evacuation ended otherwise meanwhile
    (superseded, reset, deleted): then nothing changes but the migration,
    ended ``failed`` if it still was pre-migrating."""
    with engine.writer() as conn:
        if not _end(conn, migration['id'], ('pre-migrating',), 'failed'):
            return False
        back = conn.execute(
            sa.update(instances)
            .where(instances.c.uuid == migration['instance_uuid'], instances.c.deleted == 0,
                   instances.c.host == host, instances.c.task_state == REBUILDING)
            .values(host=migration['source_compute'], node=migration['source_node'],
                    vm_state='error', task_state=None, updated_at=db_now())).rowcount == 1
        if back:
            record(conn)
    return back


def of_host(conn, host):
    """In one statement, what a compute's work poll needs: the evacuations
    to ``host`` still open (accepted: to claim; pre-migrating: claimed by a
    run of this host that stopped before it finished), and those away from
    it that are ``done`` (to be marked completed once its copy is gone).
    Tell them apart by source_compute / dest_compute."""
    return conn.execute(_of_host_query(), {'host': host}).mappings().all()


@functools.cache
def _of_host_query():
    host = sa.bindparam('host')
    return sa.select(migrations).where(
        migrations.c.migration_type == EVACUATION,
        sa.or_(sa.and_(migrations.c.source_compute == host, migrations.c.status == 'done'),
               sa.and_(migrations.c.dest_compute == host, migrations.c.status.in_(OPEN)))
    ).order_by(migrations.c.id)


def complete(migration):
    """done -> completed: the source has no copy left."""
    with engine.writer() as conn:
        return _end(conn, migration['id'], ('done',), 'completed')


def unsettled_from(conn, host, statuses=UNSETTLED):
    """Whether an evacuation away from ``host`` is in one of ``statuses``."""
    return conn.scalar(sa.select(sa.exists().where(
        migrations.c.migration_type == EVACUATION, migrations.c.source_compute == host,
        migrations.c.status.in_(statuses)))) or False


def open_involving(conn, host):
    """Whether an evacuation to or from ``host`` is still open (claimed or
    not: an unclaimed one names its destination in dest_compute only)."""
    return conn.scalar(sa.select(sa.exists().where(
        migrations.c.migration_type == EVACUATION, migrations.c.status.in_(OPEN),
        sa.or_(migrations.c.source_compute == host,
               migrations.c.dest_compute == host)))) or False


def for_instance(uuid):
    """Every migration of one server, oldest first."""
    with engine.reader() as conn:
        return conn.execute(
            sa.select(migrations).where(migrations.c.instance_uuid == uuid)
            .order_by(migrations.c.id)).mappings().all()
