"""Query functions. Rows come back as SQLAlchemy Row mappings (no ORM
entities): the hot paths turn them straight into response dicts."""
import functools
import json
import operator
import uuid as uuidlib

import sqlalchemy as sa
from oslo_db import exception as db_exc

import nova.conf
from nova import exception
from nova.db import aggregates
from nova.db import engine
from nova.db import evacuations
from nova.db import flavors as flavor_access
from nova.db import host_status_events as events
from nova.db import liveness
from nova.db.dbtime import db_now, seconds_since
from nova.db.models import COMPUTE_BINARY  # noqa: F401 (db.COMPUTE_BINARY for callers)
from nova.db.models import flavors, instance_faults, instance_tags, instances, migrations
from nova.db.models import services

CONF = nova.conf.CONF


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


def services_with_liveness(conn, host=None, binary=None, service_id=None, uuid=None):
    """Live service rows, each carrying ``is_up`` (db.liveness)."""
    query = sa.select(services, liveness.is_up(services).label('is_up')).where(
        services.c.deleted == 0)
    for column, value in ((services.c.host, host), (services.c.binary, binary),
                          (services.c.id, service_id), (services.c.uuid, uuid)):
        if value is not None:
            query = query.where(column == value)
    return conn.execute(query.order_by(services.c.id),
                        {'service_down_time': CONF.service_down_time}).mappings().all()


def joined_compute_services(rows):
    """{host: service} from server rows read ``with_service``, taken from
    the columns joined beside each server (the servers of one host share
    them): host, binary, disabled, forced_down and is_up of each host's
    live nova-compute service; a host without one is absent."""
    found = {}
    for host, service_host, disabled, forced_down, is_up in map(_JOINED_SERVICE, rows):
        if service_host is not None and host not in found:
            found[host] = {'host': host, 'binary': COMPUTE_BINARY, 'disabled': disabled,
                           'forced_down': forced_down, 'is_up': is_up}
    return found


_JOINED_SERVICE = operator.itemgetter(
    'host', 'service_host', 'service_disabled', 'service_forced_down', 'service_is_up')


def service_list(host=None, binary=None):
    with engine.reader() as conn:
        return services_with_liveness(conn, host=host, binary=binary)


def service_update(host, binary, **values):
    """Set operator-controlled columns; returns the number of rows changed.
    A change Nova announces (host_status_events.SERVICE_UPDATE_FIELDS) asks
    for its service.update in the same transaction."""
    with engine.writer() as conn:
        changed = conn.execute(
            sa.update(services)
            .where(services.c.host == host, services.c.binary == binary,
                   services.c.deleted == 0)
            .values(updated_at=db_now(), **values)).rowcount
        if changed and values.get('forced_down') is False and binary == COMPUTE_BINARY:
            _refuse_force_up(conn, host)
        if changed and events.SERVICE_UPDATE_FIELDS.intersection(values):
            events.request_service_update(conn, host, binary)
        return changed


def _refuse_force_up(conn, host):
    """Checked after the UPDATE that unforces, in its transaction: an
    evacuation asked before waits for it or is seen here (raising rolls the
    unforce back)."""
    if evacuations.unsettled_from(conn, host, ('done',)):
        raise exception.ForceUpWithDoneEvacuations(host=host)
    if evacuations.unsettled_from(conn, host, evacuations.OPEN):
        raise exception.ForceUpWithOpenEvacuations(host=host)


def service_get(service_id=None, uuid=None):
    """The live service row with that id or uuid (with ``is_up``), or None."""
    if service_id is not None and not _INT64_MIN <= service_id <= _INT64_MAX:
        return None     # no row has it, and SQLite cannot even bind it
    with engine.reader() as conn:
        rows = services_with_liveness(conn, service_id=service_id, uuid=uuid)
    return rows[0] if rows else None


_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1


def service_destroy(service_id):
    """Soft-delete a live service row (``deleted`` = its id, as every row
    here). A nova-compute whose host still has servers is refused
    (ServiceHostsInstances), in the same statement, so no server can slip
    in between the check and the delete. Returns False when there was no
    such live row."""
    hosts_servers = sa.exists().where(instances.c.host == services.c.host,
                                      instances.c.deleted == 0)
    live = sa.and_(services.c.id == service_id, services.c.deleted == 0)
    with engine.writer() as conn:
        deleted = conn.execute(
            sa.update(services)
            .where(live, sa.not_(sa.and_(services.c.binary == COMPUTE_BINARY, hosts_servers)))
            .values(deleted=services.c.id, deleted_at=db_now(), updated_at=db_now())).rowcount
        if deleted:
            # read after the write, as below; a refusal rolls the delete back
            host = conn.scalar(sa.select(services.c.host).where(
                services.c.id == service_id, services.c.binary == COMPUTE_BINARY))
            if host is not None and evacuations.open_involving(conn, host):
                raise exception.ServiceHasMigrationsInProgress()
            if host is not None:
                # as Nova: a deleted compute leaves its aggregates
                aggregates.forget_host(conn, host)
            return True
        # not deleted: gone already, or refused (read after the write, which
        # holds the lock: SQLite cannot upgrade a read to a write)
        if conn.scalar(sa.select(services.c.id).where(live)) is None:
            return False
    raise exception.ServiceHostsInstances()


def db_time():
    with engine.reader() as conn:
        return conn.scalar(sa.select(db_now()))


# --------------------------------------------------------------- instances
#
# The read statements are built once per shape (which filters, sort keys and
# marker) with a bind parameter for every value: a request pays neither for
# building them nor for SQLAlchemy's cache-key walk, and the engine's compiled
# cache has them ready.

_marker_server = instances.alias('marker')
_host_service = services.alias('service')


@functools.cache
def _instances_select(with_service=False):
    """Servers with their latest fault (ERROR/DELETED ones), optionally
    with their host's live nova-compute service beside each (``service_*``
    columns, NULL when there is none)."""
    latest_id = (
        sa.select(sa.func.max(instance_faults.c.id))
        .where(instance_faults.c.instance_uuid == instances.c.uuid)
        .scalar_subquery())
    fault = instance_faults.alias('fault')
    # Only ERROR and DELETED servers show a fault: look the latest one up
    # for them alone (CASE), not for every server of the page. Two
    # equalities rather than IN: no expanding parameter to render per query.
    faulted = sa.or_(instances.c.vm_state == 'error', instances.c.vm_state == 'deleted')
    joined = instances.outerjoin(fault, sa.and_(
        fault.c.instance_uuid == instances.c.uuid,
        fault.c.id == sa.case((faulted, latest_id))))
    columns = [
        fault.c.code.label('fault_code'),
        fault.c.message.label('fault_message'),
        fault.c.details.label('fault_details'),
        fault.c.created_at.label('fault_created_at'),
    ]
    if with_service:
        # the live nova-compute row of the server's host (constants inline:
        # two parameters fewer to bind at every request)
        joined = joined.outerjoin(_host_service, sa.and_(
            _host_service.c.host == instances.c.host,
            _host_service.c.binary == sa.literal_column("'%s'" % COMPUTE_BINARY),
            _host_service.c.deleted == sa.literal_column('0')))
        columns += [_host_service.c.host.label('service_host'),
                    _host_service.c.disabled.label('service_disabled'),
                    _host_service.c.forced_down.label('service_forced_down'),
                    liveness.is_up(_host_service).label('service_is_up')]
    return sa.select(instances, *columns).select_from(joined)


@functools.cache
def _instance_get_query(in_project, with_service):
    query = _instances_select(with_service).where(
        instances.c.uuid == sa.bindparam('uuid'), instances.c.deleted == 0)
    if in_project:
        query = query.where(instances.c.project_id == sa.bindparam('project_id'))
    return query


def instance_get(conn, uuid, project_id=None, with_service=False):
    """A live server by uuid (optionally within one project), or None.

    ``with_service`` joins the server's host service in the same statement
    (read it with joined_compute_services).
    """
    params = {'uuid': uuid}
    if with_service:
        params['service_down_time'] = CONF.service_down_time
    if project_id is not None:
        params['project_id'] = project_id
    query = _instance_get_query(project_id is not None, with_service)
    return conn.execute(query, params).mappings().first()


def instance_marker(conn, uuid):
    """The sort-key values of the marker server, or None."""
    return conn.execute(
        sa.select(instances).where(instances.c.uuid == uuid)).mappings().first()


# filter key -> how it narrows the page; each value goes in a bind parameter
_FILTERS = {
    'project_id': lambda: instances.c.project_id == sa.bindparam('project_id'),
    'user_id': lambda: instances.c.user_id == sa.bindparam('user_id'),
    'host': lambda: instances.c.host == sa.bindparam('host'),
    'node': lambda: instances.c.node == sa.bindparam('node'),
    'image_ref': lambda: instances.c.image_ref == sa.bindparam('image_ref'),
    'flavor_id': lambda: instances.c.flavor_id == sa.bindparam('flavor_id'),
    'reservation_id': lambda: instances.c.reservation_id == sa.bindparam('reservation_id'),
    'vm_state': lambda: instances.c.vm_state.in_(sa.bindparam('vm_state', expanding=True)),
    'name': lambda: instances.c.display_name.regexp_match(sa.bindparam('name')),
    'changes_since': lambda: instances.c.updated_at >= sa.bindparam('changes_since'),
    'changes_before': lambda: instances.c.updated_at <= sa.bindparam('changes_before'),
    'locked': lambda: instances.c.locked == sa.bindparam('locked'),
    # tags (2.26): each a list; the servers with all of them, any of them,
    # not all of them, none of them
    'tags': lambda: _tag_count('tags') == sa.bindparam('tags_count'),
    'tags_any': lambda: _tag_count('tags_any') > 0,
    'not_tags': lambda: _tag_count('not_tags') < sa.bindparam('not_tags_count'),
    'not_tags_any': lambda: _tag_count('not_tags_any') == 0,
}
_TAG_FILTERS = ('tags', 'tags_any', 'not_tags', 'not_tags_any')


def _tag_count(param):
    """How many of the tags in ``param`` the server carries (one index
    range per server: the primary key is (resource_id, tag))."""
    return (sa.select(sa.func.count()).select_from(instance_tags)
            .where(instance_tags.c.resource_id == instances.c.uuid,
                   instance_tags.c.tag.in_(sa.bindparam(param, expanding=True)))
            .scalar_subquery())


def instance_list(conn, filters, sort_keys, sort_dirs, limit, marker=None,
                  with_service=False, service_states=None, live_hosts=None):
    """One page of servers: filters is a dict built by the compute API.

    ``sort_keys`` must end in a unique key (``id``) so keyset pagination is
    exact. ``marker`` is the uuid of the server the page starts after, looked
    up inside the same statement (an unknown uuid gives an empty page: tell
    it from the end of the list with instance_marker), or a row from
    instance_marker. ``with_service`` joins each server's host service as
    instance_get does.

    ``service_states`` (host_status.service_states) keeps only the servers
    whose host's live compute service is in one of those (forced_down,
    disabled, alive) states, in this statement; "alive" is the db driver's
    rule, or membership of ``live_hosts`` when another driver knows it.
    """
    params = {'limit': limit}
    with_service = with_service or service_states is not None
    if with_service:
        params['service_down_time'] = CONF.service_down_time
    if live_hosts is not None:
        params['live_hosts'] = sorted(live_hosts)
    filter_keys = tuple(key for key in _FILTERS if key in filters)
    for key in filter_keys:
        params[key] = filters[key]
    if 'vm_state' in params:
        params['vm_state'] = list(params['vm_state'])
    for key in _TAG_FILTERS:
        if key in params:
            params[key] = sorted(set(params[key]))
            params[key + '_count'] = len(params[key])
    marker_kind = None
    if isinstance(marker, str):
        marker_kind = 'uuid'
        params['marker'] = marker
    elif marker is not None:
        values = [_marker_value(marker[k], instances.c[k]) for k in sort_keys]
        marker_kind = 'values'
        if len(set(sort_dirs)) > 1 or any(v is None for v in values):
            marker_kind = 'values-expanded'
        params.update(('marker_%d' % i, v) for i, v in enumerate(values))
    query = _page_query(bool(filters.get('include_deleted')), filter_keys,
                        tuple(sort_keys), tuple(sort_dirs), marker_kind, with_service,
                        service_states, live_hosts is not None)
    return conn.execute(query, params).mappings().all()


@functools.lru_cache(maxsize=512)
def _page_query(include_deleted, filter_keys, sort_keys, sort_dirs, marker_kind,
                with_service, service_states=None, live_hosts_bound=False):
    query = _instances_select(with_service)
    if not include_deleted:
        query = query.where(instances.c.deleted == 0)
    for key in filter_keys:
        query = query.where(_FILTERS[key]())
    if service_states is not None:
        query = query.where(_in_service_states(service_states, live_hosts_bound))
    columns = [_sort_key_expression(instances, k) for k in sort_keys]
    if marker_kind == 'uuid':
        # the marker's own sort values, each a one-row index look-up
        values = [sa.select(_sort_key_expression(_marker_server, k))
                  .where(_marker_server.c.uuid == sa.bindparam('marker'))
                  .scalar_subquery() for k in sort_keys]
    else:
        values = [sa.bindparam('marker_%d' % i, type_=c.type)
                  for i, c in enumerate(columns)]
    if marker_kind is not None:
        query = query.where(_after_marker(columns, sort_dirs, values,
                                          expand=marker_kind == 'values-expanded'))
        index = _ORDER_INDEXES.get(filter_keys) if sort_keys == ('created_at', 'id') else None
        if index is not None and not include_deleted:
            # MariaDB/MySQL prefer the index's equality prefix to the
            # marker's range and walk every row before the marker (a page
            # 90% down 100,000 servers took 5x the first one): named, the
            # index is range-scanned from the marker on.
            for dialect in ('mysql', 'mariadb'):
                query = query.with_hint(instances, 'FORCE INDEX (%s)' % index, dialect)
    order = [c.desc() if d == 'desc' else c.asc() for c, d in zip(columns, sort_dirs)]
    return query.order_by(*order).limit(sa.bindparam('limit', type_=sa.Integer))


def _in_service_states(states, live_hosts_bound):
    service = _host_service
    if live_hosts_bound:
        alive = service.c.host.in_(sa.bindparam('live_hosts', expanding=True))
    else:
        alive = liveness.is_up(service)

    def flag(condition, value):
        return condition if value else sa.not_(condition)
    return sa.and_(service.c.host.is_not(None), sa.or_(sa.false(), *[
        sa.and_(flag(service.c.forced_down, forced_down), flag(service.c.disabled, disabled),
                flag(alive, up))
        for forced_down, disabled, up in states]))


# The index that serves the default order (created_at, id) for each set of
# filters that has one: (filter keys) -> index name (nova/db/models.py).
_ORDER_INDEXES = {
    (): 'instances_deleted_created_idx',
    ('project_id',): 'instances_project_deleted_created_idx',
}


def _sort_key_expression(table, key):
    column = table.c[key]
    if not column.nullable or key == 'created_at':
        return column
    if isinstance(column.type, (sa.Integer, sa.Boolean)):
        return sa.func.coalesce(column, 0)
    if isinstance(column.type, sa.String):
        return sa.func.coalesce(column, '')
    return column


def _after_marker(columns, dirs, values, expand):
    if len(set(dirs)) == 1 and not expand:
        # One direction: a row-value comparison the indexes can serve.
        left, right = sa.tuple_(*columns), sa.tuple_(*values)
        after = left < right if dirs[0] == 'desc' else left > right
    else:
        clauses = []
        for i, (column, direction) in enumerate(zip(columns, dirs)):
            equal_before = [c == v for c, v in zip(columns[:i], values[:i])]
            step = column < values[i] if direction == 'desc' else column > values[i]
            clauses.append(sa.and_(*equal_before, step))
        after = sa.or_(*clauses)
    # Implied by the above, but MariaDB/MySQL range-scan an index only from a
    # plain bound on its column: without it a page deep in the marker chain
    # walks every row before the marker (5x the first page at 100,000).
    first = columns[0] <= values[0] if dirs[0] == 'desc' else columns[0] >= values[0]
    return sa.and_(first, after)


def _marker_value(value, column):
    if value is None and column.nullable:
        if isinstance(column.type, (sa.Integer, sa.Boolean)):
            return 0
        if isinstance(column.type, sa.String):
            return ''
    return value


def instances_create(rows, tags=()):
    """Insert new servers (dicts of column values), each with ``tags``;
    timestamps on the DB clock."""
    with engine.writer() as conn:
        instances_insert(conn, rows, tags)


def instances_insert(conn, rows, tags=()):
    """instances_create in the caller's transaction."""
    tags = sorted(set(tags))
    for row in rows:
        # a row may bring its own copy of tags (the benchmarks' seeds)
        conn.execute(sa.insert(instances).values({
            'created_at': db_now(), 'updated_at': db_now(), 'deleted': 0,
            'tags': tags_text(tags), **row}))
    tag_rows = [{'resource_id': row['uuid'], 'tag': tag} for row in rows for tag in tags]
    if tag_rows:
        conn.execute(sa.insert(instance_tags), tag_rows)


def flavor_copy(flavor, extra_specs=None):
    """The columns of a new server that keep its flavor (a flavors row)
    and the flavor's extra specs ({key: value})."""
    return {'flavor_name': flavor['name'], 'memory_mb': flavor['memory_mb'],
            'vcpus': flavor['vcpus'], 'root_gb': flavor['root_gb'],
            'ephemeral_gb': flavor['ephemeral_gb'], 'swap': flavor['swap'],
            'flavor_extra_specs': json.dumps(extra_specs) if extra_specs else None}


# ------------------------------------------------------------------- tags
#
# Each write runs in one transaction that first locks the live server's row
# (an UPDATE of updated_at, as Nova's instance save does): concurrent tag
# writes of one server run one after the other, so the 50-tag limit holds,
# and the row's copy of its tags (instances.tags) is written last.

def tags_text(tags):
    """instances.tags for ``tags`` (sorted)."""
    return ','.join(tags) or None


def _save_tags(conn, uuid, tags):
    conn.execute(sa.update(instances).where(instances.c.uuid == uuid)
                 .values(tags=tags_text(sorted(tags))))


def _lock_server(conn, uuid, project_id):
    query = (sa.update(instances)
             .where(instances.c.uuid == uuid, instances.c.deleted == 0)
             .values(updated_at=db_now()))
    if project_id is not None:
        query = query.where(instances.c.project_id == project_id)
    return conn.execute(query).rowcount == 1


def _tags(conn, uuid):
    return conn.execute(sa.select(instance_tags.c.tag)
                        .where(instance_tags.c.resource_id == uuid)
                        .order_by(instance_tags.c.tag)).scalars().all()


def tags_get(conn, uuid):
    return _tags(conn, uuid)


def tag_add(uuid, tag, limit, project_id=None):
    """Add ``tag``; returns (added, tags before) or None when the server
    is gone. Adds nothing when the server already has ``limit`` tags."""
    with engine.writer() as conn:
        if not _lock_server(conn, uuid, project_id):
            return None
        existing = _tags(conn, uuid)
        if len(existing) >= limit or tag in existing:
            return False, existing
        conn.execute(sa.insert(instance_tags).values(resource_id=uuid, tag=tag))
        _save_tags(conn, uuid, existing + [tag])
        return True, existing


def tags_set(uuid, tags, project_id=None):
    """Replace the server's tags; returns them sorted, or None when gone."""
    wanted = set(tags)
    with engine.writer() as conn:
        if not _lock_server(conn, uuid, project_id):
            return None
        existing = set(_tags(conn, uuid))
        if existing - wanted:
            conn.execute(sa.delete(instance_tags).where(
                instance_tags.c.resource_id == uuid,
                instance_tags.c.tag.in_(sorted(existing - wanted))))
        if wanted - existing:
            conn.execute(sa.insert(instance_tags), [
                {'resource_id': uuid, 'tag': t} for t in sorted(wanted - existing)])
        _save_tags(conn, uuid, wanted)
        return sorted(wanted)


def tag_delete(uuid, tag=None, project_id=None):
    """Delete one tag (or all with ``tag`` None); returns the number
    deleted, or None when the server is gone."""
    with engine.writer() as conn:
        if not _lock_server(conn, uuid, project_id):
            return None
        query = sa.delete(instance_tags).where(instance_tags.c.resource_id == uuid)
        if tag is not None:
            query = query.where(instance_tags.c.tag == tag)
        deleted = conn.execute(query).rowcount
        if deleted:
            _save_tags(conn, uuid, _tags(conn, uuid))
        return deleted


def instance_update(uuid, expected_task_state=(), expected_vm_state=(), expected_host=None,
                    **values):
    """Update a live server; with expected_task_state the update is a claim
    that succeeds only if the task_state is still one of those given (and
    the vm_state one of expected_vm_state, the host expected_host, when
    given: a compute never writes to a server that moved away).
    Returns True when the row changed."""
    query = (sa.update(instances)
             .where(instances.c.uuid == uuid, instances.c.deleted == 0)
             .values(updated_at=db_now(), **values))
    if expected_vm_state:
        query = query.where(instances.c.vm_state.in_(expected_vm_state))
    if expected_host is not None:
        query = query.where(instances.c.host == expected_host)
    if expected_task_state != ():
        allowed = [s for s in expected_task_state if s is not None]
        condition = instances.c.task_state.in_(allowed)
        if None in expected_task_state:
            condition = sa.or_(condition, instances.c.task_state.is_(None))
        query = query.where(condition)
    with engine.writer() as conn:
        return conn.execute(query).rowcount == 1


def instance_reset_state(uuid, vm_state):
    """An admin's reset: ``vm_state``, no task, and the server's evacuation
    not claimed yet ended, in one transaction."""
    with engine.writer() as conn:
        conn.execute(sa.update(instances)
                     .where(instances.c.uuid == uuid, instances.c.deleted == 0)
                     .values(vm_state=vm_state, task_state=None, updated_at=db_now()))
        evacuations.end_open(conn, uuid, ('accepted',))


def instance_destroy(uuid, expected_host=None):
    """Soft-delete a server (only while on ``expected_host`` if given);
    returns True if it was live."""
    query = sa.update(instances).where(instances.c.uuid == uuid, instances.c.deleted == 0)
    if expected_host is not None:
        query = query.where(instances.c.host == expected_host)
    with engine.writer() as conn:
        result = conn.execute(
            query
            .values(deleted=instances.c.id, deleted_at=db_now(), updated_at=db_now(),
                    terminated_at=db_now(), vm_state='deleted', task_state=None,
                    power_state=0, tags=None))
        # as Nova: a deleted server keeps no tags
        conn.execute(sa.delete(instance_tags).where(instance_tags.c.resource_id == uuid))
        if result.rowcount == 1:
            # its destination spawns nothing, or destroys what it spawned
            evacuations.end_open(conn, uuid)
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


def guests_rows(host, uuids):
    """What the database says of the servers whose guests ``host``'s
    hypervisor runs: {uuid: row} with ``host``, ``deleted``,
    ``deleted_for`` (seconds since it was deleted, on the database's clock)
    and ``left_here`` (an evacuation away from ``host`` moved it once); a
    uuid with no row at all is absent."""
    if not uuids:
        return {}
    left_here = sa.exists().where(migrations.c.instance_uuid == instances.c.uuid,
                                  migrations.c.source_compute == host,
                                  migrations.c.migration_type == evacuations.EVACUATION)
    with engine.reader() as conn:
        rows = conn.execute(
            sa.select(instances.c.uuid, instances.c.host, instances.c.deleted,
                      seconds_since(instances.c.deleted_at).label('deleted_for'),
                      left_here.label('left_here'))
            .where(instances.c.uuid.in_(sorted(uuids)))).mappings().all()
    return {row['uuid']: row for row in rows}


def instance_counts_by_host(conn, hosts):
    rows = conn.execute(
        sa.select(instances.c.host, sa.func.count())
        .where(instances.c.deleted == 0, instances.c.host.in_(sorted(hosts)))
        .group_by(instances.c.host)).all()
    return {host: count for host, count in rows}


# ----------------------------------------------------------------- flavors

# sort_key values Nova accepts for flavors -> our column. Nova's
# created_at follows the insertion order, which is ours by id; Nova's
# updated_at and vcpu_weight are null on every flavor here, so only the
# tie-breaker (id) orders those.
FLAVOR_SORT_KEYS = {
    'created_at': 'id', 'description': 'description', 'disabled': 'disabled',
    'ephemeral_gb': 'ephemeral_gb', 'flavorid': 'flavorid', 'id': 'id',
    'is_public': 'is_public', 'memory_mb': 'memory_mb', 'name': 'name',
    'root_gb': 'root_gb', 'rxtx_factor': 'rxtx_factor', 'swap': 'swap',
    'updated_at': None, 'vcpu_weight': None, 'vcpus': 'vcpus',
}


def flavor_list(is_public=True, disabled=None, min_memory_mb=None, min_root_gb=None,
                sort_key='flavorid', sort_dir='asc', limit=None, marker=None,
                project_id=None):
    """One page of flavors, filtered and ordered by the database.

    ``is_public``: True public only (and, as Nova, the private ones granted
    to ``project_id``, the caller's, admin or not), False private only,
    None both. ``disabled``: None for both. ``sort_key`` is a FLAVOR_SORT_KEYS
    key, the id breaking ties in the same direction. ``marker`` is the
    flavorid of any flavor, even one the filters leave out, that the page
    starts after; MarkerNotFound when no flavor has it.
    """
    query = sa.select(flavors)
    if is_public and project_id is not None:
        query = query.where(flavor_access.visible_to(project_id))
    elif is_public is not None:
        query = query.where(flavors.c.is_public == bool(is_public))
    if disabled is not None:
        query = query.where(flavors.c.disabled == bool(disabled))
    for column, minimum in ((flavors.c.memory_mb, min_memory_mb),
                            (flavors.c.root_gb, min_root_gb)):
        if minimum is not None:
            query = query.where(column >= max(_INT64_MIN, min(minimum, _INT64_MAX)))
    column = FLAVOR_SORT_KEYS[sort_key]
    # a nullable key (description) sorts as '' so the marker compares
    keys = [_sort_key_expression(flavors, column)] if column else []
    if column != 'id':
        keys.append(flavors.c.id)
    with engine.reader() as conn:
        if marker is not None:
            found = conn.execute(sa.select(*keys).where(
                flavors.c.flavorid == marker)).first()
            if found is None:
                raise exception.MarkerNotFound(marker=marker)
            values = [sa.literal(value, key.type) for key, value in zip(keys, found)]
            query = query.where(_after_marker(keys, [sort_dir] * len(keys), values,
                                              expand=False))
        query = query.order_by(*[k.desc() if sort_dir == 'desc' else k.asc() for k in keys])
        if limit is not None:
            query = query.limit(limit)
        return conn.execute(query).mappings().all()


def flavor_get(flavorid, project_id=None):
    """The flavor ``flavorid``, or None; with ``project_id`` (a member's)
    only when it is public or granted to that project, as Nova shows it."""
    if '\x00' in str(flavorid):
        return None     # no flavor has it, and PostgreSQL cannot even bind it
    query = sa.select(flavors).where(flavors.c.flavorid == str(flavorid))
    if project_id is not None:
        query = query.where(flavor_access.visible_to(project_id))
    with engine.reader() as conn:
        return conn.execute(query).mappings().first()
