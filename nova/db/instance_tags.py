"""Server tags (2.26). Each write runs in one transaction that first
locks the live server's row (an UPDATE of updated_at, as Nova's instance
save does): concurrent tag writes of one server run one after the other, so
the 50-tag limit holds, and the row's copy of its tags (instances.tags) is
written last."""
import sqlalchemy as sa

from nova.db import engine
from nova.db import nul
from nova.db.dbtime import db_now
from nova.db.models import instance_tags, instances


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
    if nul.in_any(uuid):
        return None
    if nul.in_any(tag):
        return 0
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
