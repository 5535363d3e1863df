"""Query functions. Rows come back as SQLAlchemy Row mappings (no ORM
entities): the hot paths turn them straight into response dicts."""
import uuid as uuidlib

import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova.db import engine
from nova.db.dbtime import db_now
from nova.db.models import flavors, instance_faults, instances, services

COMPUTE_BINARY = 'nova-compute'


# ---------------------------------------------------------------- services

def service_register(host, binary, topic=None):
    """Create the live row for (host, binary), or return the existing one."""
    try:
        with engine.writer() as conn:
            conn.execute(sa.insert(services).values(
                uuid=str(uuidlib.uuid4()), host=host, binary=binary, topic=topic,
                report_count=0, disabled=False, forced_down=False,
                created_at=db_now(), deleted=0))
    except db_exc.DBDuplicateEntry:
        pass
    with engine.reader() as conn:
        return conn.execute(_live_service(host, binary)).mappings().one()


def _live_service(host, binary):
    return sa.select(services).where(
        services.c.host == host, services.c.binary == binary, services.c.deleted == 0)


def service_heartbeat(service_id):
    """Record that the service is alive, on the database clock.

    Touches only liveness columns, so an operator's disable or force-down
    racing with a heartbeat is never overwritten. Returns False when the
    row is gone (deleted by an operator).
    """
    with engine.writer() as conn:
        result = conn.execute(
            sa.update(services)
            .where(services.c.id == service_id, services.c.deleted == 0)
            .values(last_seen_up=db_now(), updated_at=db_now(),
                    report_count=services.c.report_count + 1))
        return result.rowcount == 1


def services_with_db_time(conn, hosts=None, host=None, binary=None):
    """Live service rows, each carrying the database's time as ``db_now``."""
    query = sa.select(services, db_now().label('db_now')).where(services.c.deleted == 0)
    if hosts is not None:
        query = query.where(services.c.host.in_(sorted(hosts)))
    if host is not None:
        query = query.where(services.c.host == host)
    if binary is not None:
        query = query.where(services.c.binary == binary)
    return conn.execute(query.order_by(services.c.id)).mappings().all()


def service_list(host=None, binary=None):
    with engine.reader() as conn:
        return services_with_db_time(conn, host=host, binary=binary)


def service_update(host, binary, **values):
    """Set operator-controlled columns; returns the number of rows changed."""
    with engine.writer() as conn:
        result = conn.execute(
            sa.update(services)
            .where(services.c.host == host, services.c.binary == binary,
                   services.c.deleted == 0)
            .values(updated_at=db_now(), **values))
        return result.rowcount


def db_time():
    with engine.reader() as conn:
        return conn.scalar(sa.select(db_now()))


# --------------------------------------------------------------- instances

def _latest_fault_join():
    latest_id = (
        sa.select(sa.func.max(instance_faults.c.id))
        .where(instance_faults.c.instance_uuid == instances.c.uuid)
        .scalar_subquery())
    fault = instance_faults.alias('fault')
    joined = instances.outerjoin(fault, sa.and_(
        instances.c.vm_state.in_(('error', 'deleted')),
        fault.c.instance_uuid == instances.c.uuid,
        fault.c.id == latest_id))
    columns = [
        fault.c.code.label('fault_code'),
        fault.c.message.label('fault_message'),
        fault.c.details.label('fault_details'),
        fault.c.created_at.label('fault_created_at'),
    ]
    return joined, columns


def _instances_select():
    joined, fault_columns = _latest_fault_join()
    return sa.select(instances, *fault_columns).select_from(joined)


def instance_get(conn, uuid, project_id=None):
    """A live server by uuid (optionally within one project), or None."""
    query = _instances_select().where(instances.c.uuid == uuid, instances.c.deleted == 0)
    if project_id is not None:
        query = query.where(instances.c.project_id == project_id)
    return conn.execute(query).mappings().first()


def instance_marker(conn, uuid):
    """The sort-key values of the marker server, or None."""
    return conn.execute(
        sa.select(instances).where(instances.c.uuid == uuid)).mappings().first()


def instance_list(conn, filters, sort_keys, sort_dirs, limit, marker=None):
    """One page of servers: filters is a dict built by the compute API.

    ``sort_keys`` must end in a unique key (``id``) so keyset pagination
    from ``marker`` (a row from instance_marker) is exact.
    """
    query = _instances_select()
    include_deleted = filters.get('include_deleted', False)
    if not include_deleted:
        query = query.where(instances.c.deleted == 0)
    if 'project_id' in filters:
        query = query.where(instances.c.project_id == filters['project_id'])
    if 'user_id' in filters:
        query = query.where(instances.c.user_id == filters['user_id'])
    if 'host' in filters:
        query = query.where(instances.c.host == filters['host'])
    if 'vm_state' in filters:
        query = query.where(instances.c.vm_state.in_(filters['vm_state']))
    if 'name' in filters:
        query = query.where(instances.c.display_name.regexp_match(filters['name']))
    if 'changes_since' in filters:
        query = query.where(instances.c.updated_at >= filters['changes_since'])

    columns = [_sort_key_expression(k) for k in sort_keys]
    if marker is not None:
        query = query.where(_after_marker(columns, sort_keys, sort_dirs, marker))
    order = [c.desc() if d == 'desc' else c.asc() for c, d in zip(columns, sort_dirs)]
    query = query.order_by(*order).limit(limit)
    return conn.execute(query).mappings().all()


def _sort_key_expression(key):
    column = instances.c[key]
    if not column.nullable or key == 'created_at':
        return column
    if isinstance(column.type, (sa.Integer, sa.Boolean)):
        return sa.func.coalesce(column, 0)
    if isinstance(column.type, sa.String):
        return sa.func.coalesce(column, '')
    return column


def _after_marker(columns, keys, dirs, marker):
    values = [_marker_value(marker[k], instances.c[k]) for k in keys]
    if len(set(dirs)) == 1 and all(v is not None for v in values):
        # One direction: a row-value comparison the indexes can serve.
        left, right = sa.tuple_(*columns), sa.tuple_(*[sa.literal(v) for v in values])
        return left < right if dirs[0] == 'desc' else left > right
    clauses = []
    for i, (column, direction) in enumerate(zip(columns, dirs)):
        equal_before = [c == v for c, v in zip(columns[:i], values[:i])]
        step = column < values[i] if direction == 'desc' else column > values[i]
        clauses.append(sa.and_(*equal_before, step))
    return sa.or_(*clauses)


def _marker_value(value, column):
    if value is None and column.nullable:
        if isinstance(column.type, (sa.Integer, sa.Boolean)):
            return 0
        if isinstance(column.type, sa.String):
            return ''
    return value


def instances_create(rows):
    """Insert new servers (dicts of column values); timestamps on the DB clock."""
    with engine.writer() as conn:
        for row in rows:
            conn.execute(sa.insert(instances).values(
                created_at=db_now(), updated_at=db_now(), deleted=0, **row))


def instance_update(uuid, expected_task_state=(), **values):
    """Update a live server; with expected_task_state the update is a claim
    that succeeds only if the task_state is still one of those given.
    Returns True when the row changed."""
    query = (sa.update(instances)
             .where(instances.c.uuid == uuid, instances.c.deleted == 0)
             .values(updated_at=db_now(), **values))
    if expected_task_state != ():
        allowed = [s for s in expected_task_state if s is not None]
        condition = instances.c.task_state.in_(allowed)
        if None in expected_task_state:
            condition = sa.or_(condition, instances.c.task_state.is_(None))
        query = query.where(condition)
    with engine.writer() as conn:
        return conn.execute(query).rowcount == 1


def instance_destroy(uuid):
    """Soft-delete a server; returns True if it was live."""
    with engine.writer() as conn:
        result = conn.execute(
            sa.update(instances)
            .where(instances.c.uuid == uuid, instances.c.deleted == 0)
            .values(deleted=instances.c.id, deleted_at=db_now(), updated_at=db_now(),
                    terminated_at=db_now(), vm_state='deleted', task_state=None,
                    power_state=0))
        return result.rowcount == 1


def instance_fault_create(uuid, code, message, details=None, host=None):
    with engine.writer() as conn:
        conn.execute(sa.insert(instance_faults).values(
            instance_uuid=uuid, code=code, message=message, details=details,
            host=host, created_at=db_now(), deleted=0))


def instances_for_compute(host, task_states=('scheduling', 'deleting')):
    """Servers on ``host`` whose task_state says work is pending."""
    with engine.reader() as conn:
        return conn.execute(
            sa.select(instances.c.uuid, instances.c.task_state)
            .where(instances.c.host == host, instances.c.deleted == 0,
                   instances.c.task_state.in_(task_states))
        ).mappings().all()


def instance_counts_by_host(conn, hosts):
    rows = conn.execute(
        sa.select(instances.c.host, sa.func.count())
        .where(instances.c.deleted == 0, instances.c.host.in_(sorted(hosts)))
        .group_by(instances.c.host)).all()
    return {host: count for host, count in rows}


# ----------------------------------------------------------------- flavors

def flavor_list():
    with engine.reader() as conn:
        return conn.execute(
            sa.select(flavors).where(flavors.c.disabled == sa.false())
            .order_by(flavors.c.flavorid)).mappings().all()


def flavor_get(flavorid):
    with engine.reader() as conn:
        return conn.execute(
            sa.select(flavors).where(flavors.c.flavorid == str(flavorid))).mappings().first()
