"""Reading the migrations table as ``GET /os-migrations`` lists it: Nova's
filters, newest first, keyset pages after a migration's uuid."""
import sqlalchemy as sa

from nova.db import engine
from nova.db import nul
from nova.db.models import migrations
from nova import exception

# the columns a listing shows (open_instance_uuid and the watcher's
# bookkeeping are internal)
_SHOWN = (migrations.c.id, migrations.c.uuid, migrations.c.source_compute,
          migrations.c.dest_compute, migrations.c.source_node, migrations.c.dest_node,
          migrations.c.instance_uuid, migrations.c.status, migrations.c.migration_type,
          migrations.c.created_at, migrations.c.updated_at)
_ORDER = (migrations.c.created_at, migrations.c.id)


def _narrowed(query, filters):
    """``filters``: instance_uuid, migration_type, source_compute, status
    (equal), host (source or destination), changes_since / changes_before
    (updated_at at or after / at or before; a migration never updated has
    none, so neither selects it)."""
    for key in ('instance_uuid', 'migration_type', 'source_compute', 'status'):
        if key in filters:
            query = query.where(migrations.c[key] == filters[key])
    if 'host' in filters:
        query = query.where(sa.or_(migrations.c.source_compute == filters['host'],
                                   migrations.c.dest_compute == filters['host']))
    if 'changes_since' in filters:
        query = query.where(migrations.c.updated_at >= filters['changes_since'])
    if 'changes_before' in filters:
        query = query.where(migrations.c.updated_at <= filters['changes_before'])
    return query


def migration_list(filters, limit=None, marker=None):
    """One page of migrations, newest first (created_at, then id), after
    the migration whose uuid is ``marker`` (MigrationMarkerNotFound when
    none has it, whatever the filters)."""
    if nul.in_any(marker):
        raise exception.MigrationMarkerNotFound(marker=marker)
    if nul.in_any(*filters.values()):
        return []
    query = _narrowed(sa.select(*_SHOWN).where(migrations.c.deleted == 0), filters)
    with engine.reader() as conn:
        if marker is not None:
            found = conn.execute(sa.select(*_ORDER).where(
                migrations.c.uuid == marker, migrations.c.deleted == 0)).first()
            if found is None:
                raise exception.MigrationMarkerNotFound(marker=marker)
            query = query.where(sa.tuple_(*_ORDER) < sa.tuple_(*found))
        query = query.order_by(*[column.desc() for column in _ORDER])
        if limit is not None:
            query = query.limit(limit)
        return conn.execute(query).mappings().all()
