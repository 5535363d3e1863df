"""Host aggregates: rows, their hosts and their metadata. Each function
takes the connection of a transaction the caller holds (nova.compute
.aggregates), so its checks and its writes see one state."""
import uuid as uuidlib

import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova import exception
from nova.db.dbtime import db_now
from nova.db.models import COMPUTE_BINARY
from nova.db.models import aggregate_hosts, aggregate_metadata, aggregates, services

AZ_KEY = 'availability_zone'
_INT64_MAX = 2 ** 63 - 1


def now(conn):
    """The database's clock (every timestamp here is on it)."""
    return conn.scalar(sa.select(db_now()))


def _assemble(conn, rows):
    """Aggregate rows as dicts with ``hosts`` (in the order they were
    added) and ``metadata`` (in the order keys were first set)."""
    found = {row['id']: dict(row, hosts=[], metadata={}) for row in rows}
    if not found:
        return []
    ids = sorted(found)
    for aggregate_id, host in conn.execute(
            sa.select(aggregate_hosts.c.aggregate_id, aggregate_hosts.c.host)
            .where(aggregate_hosts.c.aggregate_id.in_(ids))
            .order_by(aggregate_hosts.c.id)):
        found[aggregate_id]['hosts'].append(host)
    for aggregate_id, key, value in conn.execute(
            sa.select(aggregate_metadata.c.aggregate_id, aggregate_metadata.c.key,
                      aggregate_metadata.c.value)
            .where(aggregate_metadata.c.aggregate_id.in_(ids))
            .order_by(aggregate_metadata.c.id)):
        found[aggregate_id]['metadata'][key] = value
    return [found[row['id']] for row in rows]


def lock(conn, aggregate_id):
    """Take the aggregate's row for this transaction (False when there is
    none). Written first: concurrent changes of one aggregate run one after
    the other, and on SQLite the transaction holds the write lock before it
    reads (a read cannot be upgraded once another writer committed).
    Rewrites an unchanged column: no trace, on any backend."""
    if not -_INT64_MAX <= aggregate_id <= _INT64_MAX:
        return False
    return conn.execute(sa.update(aggregates).where(aggregates.c.id == aggregate_id)
                        .values(name=aggregates.c.name)).rowcount == 1


def lock_host(conn, host):
    """Take the host's live compute service row for this transaction: two
    requests putting one host in two aggregates run one after the other,
    so the second sees the first's zone."""
    conn.execute(sa.update(services).where(
        services.c.host == host, services.c.binary == COMPUTE_BINARY,
        services.c.deleted == 0).values(host=services.c.host))


def get(conn, aggregate_id):
    """The aggregate with that id, or None."""
    if not -_INT64_MAX <= aggregate_id <= _INT64_MAX:
        return None     # no row has it, and SQLite cannot even bind it
    rows = conn.execute(sa.select(aggregates).where(
        aggregates.c.id == aggregate_id)).mappings().all()
    found = _assemble(conn, rows)
    return found[0] if found else None


def list_all(conn):
    rows = conn.execute(sa.select(aggregates).order_by(aggregates.c.id)).mappings().all()
    return _assemble(conn, rows)


def create(conn, name, metadata):
    """A new aggregate's id; AggregateNameExists when the name is taken."""
    try:
        aggregate_id = conn.execute(sa.insert(aggregates).values(
            uuid=str(uuidlib.uuid4()), name=name, created_at=db_now())).inserted_primary_key[0]
    except db_exc.DBDuplicateEntry:
        raise exception.AggregateNameExists(aggregate_name=name)
    update_metadata(conn, aggregate_id, metadata)
    return aggregate_id


def rename(conn, aggregate_id, name):
    try:
        conn.execute(sa.update(aggregates).where(aggregates.c.id == aggregate_id)
                     .values(name=name, updated_at=db_now()))
    except db_exc.DBDuplicateEntry:
        raise exception.AggregateNameExists(aggregate_name=name)


def update_metadata(conn, aggregate_id, updates):
    """Set each key of ``updates``; a None value removes its key. A key
    that stays keeps its row (and its place in the order)."""
    gone = sorted(key for key, value in updates.items() if value is None)
    if gone:
        conn.execute(sa.delete(aggregate_metadata).where(
            aggregate_metadata.c.aggregate_id == aggregate_id,
            aggregate_metadata.c.key.in_(gone)))
    for key, value in updates.items():
        if value is None:
            continue
        changed = conn.execute(sa.update(aggregate_metadata).where(
            aggregate_metadata.c.aggregate_id == aggregate_id,
            aggregate_metadata.c.key == key).values(value=value)).rowcount
        if not changed:
            conn.execute(sa.insert(aggregate_metadata).values(
                aggregate_id=aggregate_id, key=key, value=value))


def add_host(conn, aggregate_id, host):
    """AggregateHostExists when the host is a member already."""
    try:
        conn.execute(sa.insert(aggregate_hosts).values(aggregate_id=aggregate_id, host=host))
    except db_exc.DBDuplicateEntry:
        raise exception.AggregateHostExists(aggregate_id=aggregate_id, host=host)


def remove_host(conn, aggregate_id, host):
    """True when the host was a member."""
    return conn.execute(sa.delete(aggregate_hosts).where(
        aggregate_hosts.c.aggregate_id == aggregate_id,
        aggregate_hosts.c.host == host)).rowcount == 1


def destroy(conn, aggregate_id):
    # explicit: SQLite does not enforce the foreign keys' cascade
    for table in (aggregate_hosts, aggregate_metadata):
        conn.execute(sa.delete(table).where(table.c.aggregate_id == aggregate_id))
    conn.execute(sa.delete(aggregates).where(aggregates.c.id == aggregate_id))


def forget_host(conn, host):
    """Take a host out of every aggregate (its compute service is deleted)."""
    conn.execute(sa.delete(aggregate_hosts).where(aggregate_hosts.c.host == host))


def zones_of_hosts(conn, hosts):
    """[(aggregate id, availability zone)] of the aggregates holding any of
    ``hosts`` that name a zone, by aggregate id."""
    if not hosts:
        return []
    return [tuple(row) for row in conn.execute(
        sa.select(aggregate_metadata.c.aggregate_id, aggregate_metadata.c.value)
        .where(aggregate_metadata.c.key == AZ_KEY,
               aggregate_metadata.c.aggregate_id.in_(
                   sa.select(aggregate_hosts.c.aggregate_id)
                   .where(aggregate_hosts.c.host.in_(sorted(set(hosts))))))
        .order_by(aggregate_metadata.c.aggregate_id))]


def metadata_of_hosts(conn, hosts):
    """{host: [metadata of each aggregate holding it]} for ``hosts``
    (the scheduler's aggregate filter)."""
    found = {host: {} for host in hosts}
    if not hosts:
        return {}
    for host, aggregate_id, key, value in conn.execute(
            sa.select(aggregate_hosts.c.host, aggregate_metadata.c.aggregate_id,
                      aggregate_metadata.c.key, aggregate_metadata.c.value)
            .join(aggregate_metadata,
                  aggregate_metadata.c.aggregate_id == aggregate_hosts.c.aggregate_id)
            .where(aggregate_hosts.c.host.in_(sorted(set(hosts))))):
        found[host].setdefault(aggregate_id, {})[key] = value
    return {host: list(by_aggregate.values()) for host, by_aggregate in found.items()}
