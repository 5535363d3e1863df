"""Service rows: registration, heartbeats (the db liveness driver's),
the operator's updates and deletes, and the rows with their liveness."""
import functools
import operator
import uuid as uuidlib

import sqlalchemy as sa
from oslo_db import exception as db_exc

import nova.conf
from nova import exception
from nova.db import aggregates
from nova.db import engine
from nova.db import evacuations
from nova.db import host_status_events as events
from nova.db import liveness
from nova.db import nul
from nova.db.dbtime import db_now
from nova.db.models import COMPUTE_BINARY  # noqa: F401 (service_db.COMPUTE_BINARY for callers)
from nova.db.models import instances, services
from nova.db.types import INT64_MAX, INT64_MIN

CONF = nova.conf.CONF


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
    if nul.in_any(host, binary, uuid):
        return []
    query = sa.select(services, liveness.is_up(services).label('is_up')).where(
        services.c.deleted == 0)
    for column, value in ((services.c.host, host), (services.c.binary, binary),
                          (services.c.id, service_id), (services.c.uuid, uuid)):
        if value is not None:
            query = query.where(column == value)
    return conn.execute(query.order_by(services.c.id),
                        {'service_down_time': CONF.service_down_time}).mappings().all()


def joined_compute_services(rows, layout=None):
    """{host: service} from server rows read ``with_service``, taken from
    the columns joined beside each server (the servers of one host share
    them): host, binary, disabled, forced_down and is_up of each host's
    live nova-compute service; a host without one is absent. Mapping rows,
    or plain tuples whose values ``layout`` names."""
    found = {}
    for host, service_host, disabled, forced_down, is_up in map(_joined_service(layout), rows):
        if service_host is not None and host not in found:
            found[host] = {'host': host, 'binary': COMPUTE_BINARY, 'disabled': bool(disabled),
                           'forced_down': bool(forced_down), 'is_up': bool(is_up)}
    return found


_JOINED_SERVICE = ('host', 'service_host', 'service_disabled', 'service_forced_down',
                   'service_is_up')


@functools.lru_cache(maxsize=64)
def _joined_service(layout):
    if layout is None:
        return operator.itemgetter(*_JOINED_SERVICE)
    return operator.itemgetter(*(layout.index(name) for name in _JOINED_SERVICE))


def service_list(host=None, binary=None):
    with engine.reader() as conn:
        return services_with_liveness(conn, host=host, binary=binary)


def compute_forced_down(conn, host):
    """Whether ``host``'s live nova-compute service is forced down (False
    when it has none): all its work poll asks of its service."""
    return bool(conn.scalar(_forced_down_query(), {'host': host}))


@functools.cache
def _forced_down_query():
    return sa.select(services.c.forced_down).where(
        services.c.host == sa.bindparam('host'), services.c.binary == COMPUTE_BINARY,
        services.c.deleted == 0)


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
    if service_id is not None and not INT64_MIN <= service_id <= INT64_MAX:
        return None     # no row has it, and SQLite cannot even bind it
    with engine.reader() as conn:
        rows = services_with_liveness(conn, service_id=service_id, uuid=uuid)
    return rows[0] if rows else None



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
