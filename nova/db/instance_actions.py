"""Instance actions and their events (os-instance-actions).

An action is written by the API once the server's state was claimed for
it; its events by whoever does the step (the API's scheduling, a
compute's spawn), as single INSERT or UPDATE statements that find their
action themselves (the latest of that name for the server), so a
compute's work poll reads nothing more for them. An event that ends in
Error marks its action's message ``Error``, as Nova's.
"""
import sqlalchemy as sa

from nova.db import engine
from nova.db import nul
from nova.db.dbtime import db_now
from nova.db.models import instance_actions as actions
from nova.db.models import instances
from nova.db.models import instance_actions_events as events

SUCCESS = 'Success'
ERROR = 'Error'


def start(rows, action, request_id, user_id, project_id, conn=None):
    """Record ``action`` of each server in ``rows`` (dicts with a uuid),
    asked by request ``request_id`` (in ``conn``'s transaction if given)."""
    statement = sa.insert(actions).values([dict(
        action=action, instance_uuid=row['uuid'], request_id=request_id,
        user_id=user_id, project_id=project_id, start_time=db_now(),
        created_at=db_now(), updated_at=db_now()) for row in rows])
    _write(statement, conn)


def _write(statement, conn):
    with engine.writing(conn) as conn:
        conn.execute(statement)


def _latest(instance_uuid, action):
    return (sa.select(sa.func.max(actions.c.id))
            .where(actions.c.instance_uuid == instance_uuid, actions.c.action == action)
            .scalar_subquery())


def event_start(instance_uuid, action, event, host, conn=None):
    """Open ``event`` on ``host`` under the server's latest ``action`` (none
    recorded: nothing written)."""
    statement = sa.insert(events).from_select(
        ['action_id', 'event', 'start_time', 'host'],
        sa.select(actions.c.id, sa.literal(event), db_now(), sa.literal(host))
        .where(actions.c.id == _latest(instance_uuid, action)))
    _write(statement, conn)


def event_finish(instance_uuid, action, event, result, conn=None):
    """Close the open ``event`` of the server's latest ``action`` with
    ``result`` (an Error marks the action's message)."""
    with engine.writing(conn) as conn:
        latest = _latest(instance_uuid, action)
        conn.execute(sa.update(events).where(
            events.c.action_id == latest, events.c.event == event,
            events.c.finish_time.is_(None)).values(finish_time=db_now(), result=result))
        values = {'updated_at': db_now()}
        if result == ERROR:
            values['message'] = ERROR
        # MySQL refuses a subquery of the table it updates unless derived
        derived = sa.select(latest.label('id')).subquery()
        conn.execute(sa.update(actions).where(
            actions.c.id == sa.select(derived.c.id).scalar_subquery()).values(**values))


def event_record(instance_uuid, action, event, host, result, conn=None):
    """A step that began and ended at once."""
    with engine.writing(conn) as conn:
        event_start(instance_uuid, action, event, host, conn)
        event_finish(instance_uuid, action, event, result, conn)


def page(instance_uuid, limit=None, marker=None, since=None, before=None):
    """A server's actions, newest first; after the one of request
    ``marker`` (None: MarkerNotFound is the caller's, via ``found``);
    ``since``/``before`` bound updated_at. Returns (rows, marker found)."""
    if nul.in_any(instance_uuid, marker):
        return [], False
    query = sa.select(actions).where(actions.c.instance_uuid == instance_uuid)
    if since is not None:
        query = query.where(actions.c.updated_at >= since)
    if before is not None:
        query = query.where(actions.c.updated_at <= before)
    with engine.reader() as conn:
        if marker is not None:
            found = conn.execute(sa.select(actions.c.id).where(
                actions.c.instance_uuid == instance_uuid,
                actions.c.request_id == marker)).first()
            if found is None:
                return [], False
            query = query.where(actions.c.id < found.id)
        query = query.order_by(actions.c.id.desc())
        if limit is not None:
            query = query.limit(limit)
        return conn.execute(query).mappings().all(), True


def get(instance_uuid, request_id):
    """(the server's action of request ``request_id``, its events oldest
    first), or None."""
    if nul.in_any(instance_uuid, request_id):
        return None
    with engine.reader() as conn:
        row = conn.execute(sa.select(actions).where(
            actions.c.instance_uuid == instance_uuid, actions.c.request_id == request_id)
            .order_by(actions.c.id.desc()).limit(1)).mappings().first()
        if row is None:
            return None
        return row, conn.execute(sa.select(events).where(events.c.action_id == row['id'])
                                 .order_by(events.c.id)).mappings().all()


def server_project(uuid, with_deleted):
    """The project of server ``uuid`` (a deleted one too when
    ``with_deleted``), or None when there is none."""
    if nul.in_any(uuid):
        return None
    query = sa.select(instances.c.project_id).where(instances.c.uuid == uuid)
    if not with_deleted:
        query = query.where(instances.c.deleted == 0)
    with engine.reader() as conn:
        return conn.scalar(query.order_by(instances.c.id.desc()).limit(1))
