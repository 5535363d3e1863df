"""Evacuations in the migrations table: the destination compute's work
and the source compute's tombstone (as Nova's migration records).

Statuses, as Nova's: ``accepted`` (asked; the server is ``rebuilding``)
-> ``pre-migrating`` (the destination claimed it) -> ``done`` (the server
runs there) -> ``completed`` (the source, back, destroyed its copy);
``error`` (no valid host) and ``failed`` (the destination could not
finish) end one that never moved the server.
"""
import uuid as uuidlib

import sqlalchemy as sa

from nova.db import engine
from nova.db.dbtime import db_now
from nova.db.models import instances, migrations

EVACUATION = 'evacuation'
REBUILDING = 'rebuilding'
# what a source compute that comes back must no longer run
SOURCE_MUST_DESTROY = ('accepted', 'pre-migrating', 'done')
# the server runs on the destination: it moved
MOVED = ('done', 'completed')


def start(row, allowed_vm_states, dest_host):
    """Claim the server ``row`` for an evacuation and record it, in one
    transaction: task_state None -> rebuilding (vm_state one of
    ``allowed_vm_states``, still on its host), migration ``accepted`` to
    ``dest_host``. With no ``dest_host`` (no valid host) the server goes
    to ERROR instead and the migration is ``error``, as Nova's conductor
    leaves them. Returns the migration's uuid, or None when the server
    changed since it was read."""
    values = ({'task_state': REBUILDING} if dest_host
              else {'vm_state': 'error', 'task_state': None})
    migration_uuid = str(uuidlib.uuid4())
    with engine.writer() as conn:
        claimed = conn.execute(
            sa.update(instances)
            .where(instances.c.uuid == row['uuid'], instances.c.deleted == 0,
                   instances.c.host == row['host'], instances.c.task_state.is_(None),
                   instances.c.vm_state.in_(allowed_vm_states))
            .values(updated_at=db_now(), **values)).rowcount
        if claimed != 1:
            return None
        conn.execute(sa.insert(migrations).values(
            uuid=migration_uuid, instance_uuid=row['uuid'], migration_type=EVACUATION,
            source_compute=row['host'], source_node=row['node'], dest_compute=dest_host,
            dest_node=dest_host, status='accepted' if dest_host else 'error',
            old_vm_state=row['vm_state'], created_at=db_now(), updated_at=db_now(),
            deleted=0))
    return migration_uuid


def _set_status(conn, migration_id, expected, status):
    return conn.execute(
        sa.update(migrations)
        .where(migrations.c.id == migration_id, migrations.c.status.in_(expected))
        .values(status=status, updated_at=db_now())).rowcount == 1


def to_run_on(host, statuses=('accepted',)):
    """Evacuations to ``host`` in one of ``statuses`` (by default: not
    claimed yet)."""
    with engine.reader() as conn:
        return conn.execute(
            sa.select(migrations).where(
                migrations.c.dest_compute == host, migrations.c.status.in_(statuses),
                migrations.c.migration_type == EVACUATION)
            .order_by(migrations.c.id)).mappings().all()


def claim(migration):
    """accepted -> pre-migrating; False when another run took it."""
    with engine.writer() as conn:
        return _set_status(conn, migration['id'], ('accepted',), 'pre-migrating')


def release(migration):
    """pre-migrating -> accepted: a destination stopping mid-rebuild gives
    the evacuation back for its next start."""
    with engine.writer() as conn:
        return _set_status(conn, migration['id'], ('pre-migrating',), 'accepted')


def finish(migration, host, **values):
    """The server runs on ``host`` now: it moves there (host, node and
    ``values`` set while it is still rebuilding on the source) and the
    migration is ``done``, in one transaction. When the server changed
    meanwhile (reset, deleted) nothing moves, the migration is ``failed``
    and False is returned."""
    with engine.writer() as conn:
        moved = conn.execute(
            sa.update(instances)
            .where(instances.c.uuid == migration['instance_uuid'], instances.c.deleted == 0,
                   instances.c.host == migration['source_compute'],
                   instances.c.task_state == REBUILDING)
            .values(host=host, node=host, updated_at=db_now(), **values)).rowcount == 1
        _set_status(conn, migration['id'], ('pre-migrating',), 'done' if moved else 'failed')
    return moved


def evacuated_from(host):
    """Evacuations away from ``host`` whose copy there must not run."""
    return [m for m in of_host(host) if m['source_compute'] == host]


def of_host(host):
    """In one statement, what a compute's work poll needs: the evacuations
    away from ``host`` whose copy there must not run, and those to it not
    claimed yet (tell them apart by source_compute / dest_compute)."""
    with engine.reader() as conn:
        return conn.execute(
            sa.select(migrations).where(
                migrations.c.migration_type == EVACUATION,
                sa.or_(sa.and_(migrations.c.source_compute == host,
                               migrations.c.status.in_(SOURCE_MUST_DESTROY)),
                       sa.and_(migrations.c.dest_compute == host,
                               migrations.c.status == 'accepted')))
            .order_by(migrations.c.id)).mappings().all()


def complete(migration):
    """done -> completed: the source destroyed its copy."""
    with engine.writer() as conn:
        return _set_status(conn, migration['id'], ('done',), 'completed')


def for_instance(uuid):
    """Every migration of one server, oldest first."""
    with engine.reader() as conn:
        return conn.execute(
            sa.select(migrations).where(migrations.c.instance_uuid == uuid)
            .order_by(migrations.c.id)).mappings().all()
