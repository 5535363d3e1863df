"""Server rows: the page and show reads, creation, updates and deletes,
faults, and what a compute asks of its own servers and guests.

The read statements are built once per shape (which filters, sort keys and
marker) with a bind parameter for every value: a request pays neither for
building them nor for SQLAlchemy's cache-key walk, and the engine's compiled
cache has them ready."""
import collections
import functools
import json

import sqlalchemy as sa

import nova.conf
from nova.db import engine
from nova.db import evacuations
from nova.db import liveness
from nova.db import nul
from nova.db.dbtime import db_now, seconds_since
from nova.db.instance_tags import tags_text
from nova.db.models import COMPUTE_BINARY
from nova.db.models import instance_faults, instance_tags, instances, migrations, services
from nova.db.paging import after_marker, marker_value, sort_key_expression
from nova.db.timestamp_text import iso_micro, iso_seconds

CONF = nova.conf.CONF

_marker_server = instances.alias('marker')
_host_service = services.alias('service')
# a server's times as the API shows them, read beside its own columns
_SHOWN_TIMES = {
    'created_iso': iso_seconds(instances.c.created_at),
    'updated_iso': iso_seconds(sa.func.coalesce(instances.c.updated_at, instances.c.created_at)),
    'launched_iso': iso_micro(instances.c.launched_at),
    'terminated_iso': iso_micro(instances.c.terminated_at),
}


def _server_column(name):
    shown = _SHOWN_TIMES.get(name)
    return instances.c[name] if shown is None else shown.label(name)


@functools.cache
def _instances_select(with_service=False, names=None):
    """Servers with their latest fault (ERROR/DELETED ones), optionally
    with their host's live nova-compute service beside each (``service_*``
    columns, NULL when there is none). ``names`` narrows the server's
    columns (its own and _SHOWN_TIMES) to those a view reads; None reads
    them all."""
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
        iso_seconds(fault.c.created_at).label('fault_created_iso'),
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
    if names is None:
        own = (instances, *(time.label(name) for name, time in _SHOWN_TIMES.items()))
    else:
        own = tuple(_server_column(name) for name in names)
    return sa.select(*own, *columns).select_from(joined)


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
    if nul.in_any(uuid):
        return None
    params = {'uuid': uuid}
    if with_service:
        params['service_down_time'] = CONF.service_down_time
    if project_id is not None:
        params['project_id'] = project_id
    query = _instance_get_query(project_id is not None, with_service)
    return conn.execute(query, params).mappings().first()


def instance_marker(conn, uuid):
    """The sort-key values of the marker server, or None."""
    if nul.in_any(uuid):
        return None
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


def _nul_free(filters):
    """``filters`` as the database can be asked them, or None when no
    server matches them: no stored value holds a NUL (nova/db/nul.py), so
    a filter asking for one matches nothing, and a tag holding one is
    carried by no server."""
    if not nul.in_any(*filters.values()):
        return filters
    if any(nul.in_any(value) for key, value in filters.items() if key not in _TAG_FILTERS):
        return None
    kept = dict(filters)
    for key in _TAG_FILTERS:
        if not nul.in_any(kept.get(key)):
            continue
        if key == 'tags':
            return None                 # no server carries them all
        if key == 'not_tags':
            del kept[key]               # every server lacks one of them
            continue
        carried = [tag for tag in kept[key] if not nul.in_any(tag)]
        if carried:
            kept[key] = carried
        elif key == 'tags_any':
            return None
        else:
            del kept[key]               # not_tags_any: no server carries any
    return kept


def _tag_count(param):
    """How many of the tags in ``param`` the server carries (one index
    range per server: the primary key is (resource_id, tag))."""
    return (sa.select(sa.func.count()).select_from(instance_tags)
            .where(instance_tags.c.resource_id == instances.c.uuid,
                   instance_tags.c.tag.in_(sa.bindparam(param, expanding=True)))
            .scalar_subquery())


def instance_list(conn, filters, sort_keys, sort_dirs, limit, marker=None,
                  with_service=False, service_states=None, live_hosts=None, columns=None,
                  positional=False):
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

    ``columns``, a tuple of server column names, reads only those (and the
    fault and service columns); None reads every column.

    Rows are mappings; ``positional`` gives a PlainRows instead: plain
    tuples (no SQLAlchemy row objects, ~1 ms less on a 1000-server page)
    and the names of their values.
    """
    filters = _nul_free(filters)
    if filters is None or (isinstance(marker, str) and nul.in_any(marker)):
        return EMPTY_PAGE if positional else []
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
        values = [marker_value(marker[k], instances.c[k]) for k in sort_keys]
        marker_kind = 'values'
        if len(set(sort_dirs)) > 1 or any(v is None for v in values):
            marker_kind = 'values-expanded'
        params.update(('marker_%d' % i, v) for i, v in enumerate(values))
    query = _page_query(bool(filters.get('include_deleted')), filter_keys,
                        tuple(sort_keys), tuple(sort_dirs), marker_kind, with_service,
                        service_states, live_hosts is not None, columns)
    result = conn.execute(query, params)
    if positional:
        # no column of these statements has a result processor that the
        # views rely on: booleans come as 0/1 from SQLite and MariaDB, and
        # are read for their truth
        rows = result.cursor.fetchall()
        result.close()
        return PlainRows(_layout(query), rows)
    return result.mappings().all()


class PlainRows(collections.namedtuple('PlainRows', 'layout rows')):
    """A page's rows as plain tuples; ``layout`` names their values in
    order."""


EMPTY_PAGE = PlainRows(None, [])


@functools.lru_cache(maxsize=512)
def _layout(query):
    return tuple(query.selected_columns.keys())


@functools.lru_cache(maxsize=512)
def _page_query(include_deleted, filter_keys, sort_keys, sort_dirs, marker_kind,
                with_service, service_states=None, live_hosts_bound=False, columns=None):
    query = _instances_select(with_service, columns)
    if not include_deleted:
        query = query.where(instances.c.deleted == 0)
    for key in filter_keys:
        query = query.where(_FILTERS[key]())
    if service_states is not None:
        query = query.where(_in_service_states(service_states, live_hosts_bound))
    columns = [sort_key_expression(instances, k) for k in sort_keys]
    if marker_kind == 'uuid':
        # the marker's own sort values, each a one-row index look-up
        values = [sa.select(sort_key_expression(_marker_server, k))
                  .where(_marker_server.c.uuid == sa.bindparam('marker'))
                  .scalar_subquery() for k in sort_keys]
    else:
        values = [sa.bindparam('marker_%d' % i, type_=c.type)
                  for i, c in enumerate(columns)]
    if marker_kind is not None:
        query = query.where(after_marker(columns, sort_dirs, values,
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


def instance_update(uuid, expected_task_state=(), expected_vm_state=(), expected_host=None,
                    conn=None, **values):
    """Update a live server; with expected_task_state the update is a claim
    that succeeds only if the task_state is still one of those given (and
    the vm_state one of expected_vm_state, the host expected_host, when
    given: a compute never writes to a server that moved away). In
    ``conn``'s transaction when given. Returns True when the row changed."""
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
    with engine.writing(conn) as conn:
        return conn.execute(query).rowcount == 1


def instance_reset_state(uuid, vm_state):
    """An admin's reset: ``vm_state``, no task, and the server's evacuation
    not claimed yet ended, in one transaction."""
    with engine.writer() as conn:
        conn.execute(sa.update(instances)
                     .where(instances.c.uuid == uuid, instances.c.deleted == 0)
                     .values(vm_state=vm_state, task_state=None, updated_at=db_now()))
        evacuations.end_open(conn, uuid, ('accepted',))


def instance_destroy(uuid, expected_host=None, conn=None):
    """Soft-delete a server (only while on ``expected_host`` if given; in
    ``conn``'s transaction if given); returns True if it was live."""
    query = sa.update(instances).where(instances.c.uuid == uuid, instances.c.deleted == 0)
    if expected_host is not None:
        query = query.where(instances.c.host == expected_host)
    with engine.writing(conn) as conn:
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


def instance_fault_create(uuid, code, message, details=None, host=None, conn=None):
    """In ``conn``'s transaction when given."""
    with engine.writing(conn) as conn:
        conn.execute(sa.insert(instance_faults).values(
            instance_uuid=uuid, code=code, message=message, details=details,
            host=host, created_at=db_now(), deleted=0))


def instances_for_compute(host, task_states=('scheduling', 'deleting')):
    """Servers on ``host`` whose task_state says work is pending."""
    with engine.reader() as conn:
        return conn.execute(_work_query(), {'host': host, 'task_states': list(task_states)}
                            ).mappings().all()


@functools.cache
def _work_query():
    return sa.select(instances.c.uuid, instances.c.task_state).where(
        instances.c.host == sa.bindparam('host'), instances.c.deleted == 0,
        instances.c.task_state.in_(sa.bindparam('task_states', expanding=True)))


def guests_rows(conn, host, uuids):
    """What the database says of the servers whose guests ``host``'s
    hypervisor runs: {uuid: row} with ``host``, ``deleted``,
    ``deleted_for`` (seconds since it was deleted, on the database's clock)
    and ``left_here`` (an evacuation away from ``host`` moved it once); a
    uuid with no row at all is absent."""
    if not uuids:
        return {}
    rows = conn.execute(_guests_rows_query(), {'host': host, 'uuids': sorted(uuids)}
                        ).mappings().all()
    return {row['uuid']: row for row in rows}


@functools.cache
def _guests_rows_query():
    left_here = sa.exists().where(migrations.c.instance_uuid == instances.c.uuid,
                                  migrations.c.source_compute == sa.bindparam('host'),
                                  migrations.c.migration_type == evacuations.EVACUATION)
    return sa.select(instances.c.uuid, instances.c.host, instances.c.deleted,
                     seconds_since(instances.c.deleted_at).label('deleted_for'),
                     left_here.label('left_here')
                     ).where(instances.c.uuid.in_(sa.bindparam('uuids', expanding=True)))


def instance_counts_by_host(conn, hosts):
    rows = conn.execute(
        sa.select(instances.c.host, sa.func.count())
        .where(instances.c.deleted == 0, instances.c.host.in_(sorted(hosts)))
        .group_by(instances.c.host)).all()
    return {host: count for host, count in rows}
