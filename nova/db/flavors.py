"""Flavor rows: the list and show (a member's ask ``visible_to``, which
flavors their project may see), create and delete, and the projects granted
a private flavor (os-flavor-access)."""
import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova import exception
from nova.db import engine
from nova.db import nul
from nova.db.models import flavor_extra_specs, flavor_projects, flavors
from nova.db.paging import after_marker, sort_key_expression
from nova.db.types import INT64_MAX, INT64_MIN


def visible_to(project_id):
    """The clause a member's lists and show add: public, or granted to
    ``project_id``."""
    granted = sa.exists().where(flavor_projects.c.flavor_id == flavors.c.id,
                                flavor_projects.c.project_id == project_id)
    return sa.or_(flavors.c.is_public == sa.true(), granted)


def create(values):
    """Insert a flavor (the flavors columns in ``values``) and return its
    row; FlavorIdExists or FlavorExists when its flavorid or name is taken."""
    try:
        with engine.writer() as conn:
            conn.execute(sa.insert(flavors).values(**values))
    except db_exc.DBDuplicateEntry as exc:
        # the columns the violated constraint names; SQLite names both
        # columns of a name clash too, so the id is asked first
        if 'flavorid' in (exc.columns or ()) or _taken(values['flavorid']):
            raise exception.FlavorIdExists(flavor_id=values['flavorid'])
        raise exception.FlavorExists(name=values['name'])
    with engine.reader() as conn:
        return conn.execute(sa.select(flavors).where(
            flavors.c.flavorid == values['flavorid'])).mappings().one()


def _taken(flavorid):
    with engine.reader() as conn:
        return conn.execute(sa.select(flavors.c.id).where(
            flavors.c.flavorid == flavorid)).first() is not None


def destroy(flavorid):
    """Delete a flavor, its grants and extra specs; servers keep their copy of it.
    FlavorNotFound when there is none."""
    if nul.in_any(str(flavorid)):
        raise exception.FlavorNotFound(flavor_id=flavorid)
    with engine.writer() as conn:
        # writes only (no read first): SQLite takes its write lock at the
        # first statement, waiting its busy timeout, instead of failing to
        # upgrade a read lock while another writer holds it. The grants and
        # extra specs go explicitly: SQLite does not enforce the cascade.
        this_flavor = sa.select(flavors.c.id).where(flavors.c.flavorid == flavorid)
        for table in (flavor_projects, flavor_extra_specs):
            conn.execute(sa.delete(table).where(table.c.flavor_id.in_(this_flavor)))
        deleted = conn.execute(sa.delete(flavors).where(
            flavors.c.flavorid == flavorid)).rowcount
    if not deleted:
        raise exception.FlavorNotFound(flavor_id=flavorid)


def update_description(flavorid, description):
    """Set a flavor's description and return its row; FlavorNotFound when
    there is none."""
    if nul.in_any(str(flavorid)):
        raise exception.FlavorNotFound(flavor_id=flavorid)
    with engine.writer() as conn:
        # the write first, then the read (SQLite: no read-to-write upgrade)
        updated = conn.execute(sa.update(flavors).where(
            flavors.c.flavorid == str(flavorid)).values(description=description)).rowcount
        if updated:
            return conn.execute(sa.select(flavors).where(
                flavors.c.flavorid == str(flavorid))).mappings().one()
    raise exception.FlavorNotFound(flavor_id=flavorid)


def projects(flavor_pk):
    """The projects granted the flavor with primary key ``flavor_pk``, by id."""
    with engine.reader() as conn:
        return _projects(conn, flavor_pk)


def _projects(conn, flavor_pk):
    return list(conn.scalars(sa.select(flavor_projects.c.project_id).where(
        flavor_projects.c.flavor_id == flavor_pk).order_by(flavor_projects.c.project_id)))


def add_project(flavor, project_id):
    """Grant ``flavor`` (a flavors row) to a project; returns the projects
    granted it now. FlavorAccessExists when it already was, FlavorNotFound
    when the flavor went meanwhile."""
    try:
        with engine.writer() as conn:
            conn.execute(sa.insert(flavor_projects).values(flavor_id=flavor['id'],
                                                           project_id=project_id))
            return _projects(conn, flavor['id'])
    except db_exc.DBDuplicateEntry:
        raise exception.FlavorAccessExists(flavor_id=flavor['id'], project_id=project_id)
    except db_exc.DBReferenceError:
        raise exception.FlavorNotFound(flavor_id=flavor['flavorid'])


def remove_project(flavor, project_id):
    """Take a project's grant of ``flavor`` away; returns the projects
    granted it now. FlavorAccessNotFound when there was none."""
    with engine.writer() as conn:
        removed = conn.execute(sa.delete(flavor_projects).where(
            flavor_projects.c.flavor_id == flavor['id'],
            flavor_projects.c.project_id == project_id)).rowcount
        if not removed:
            raise exception.FlavorAccessNotFound(flavor_id=flavor['id'], project_id=project_id)
        return _projects(conn, flavor['id'])


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
    if nul.in_any(marker):
        raise exception.MarkerNotFound(marker=marker)
    query = sa.select(flavors)
    if is_public and project_id is not None:
        query = query.where(visible_to(project_id))
    elif is_public is not None:
        query = query.where(flavors.c.is_public == bool(is_public))
    if disabled is not None:
        query = query.where(flavors.c.disabled == bool(disabled))
    for column, minimum in ((flavors.c.memory_mb, min_memory_mb),
                            (flavors.c.root_gb, min_root_gb)):
        if minimum is not None:
            query = query.where(column >= max(INT64_MIN, min(minimum, INT64_MAX)))
    column = FLAVOR_SORT_KEYS[sort_key]
    # a nullable key (description) sorts as '' so the marker compares
    keys = [sort_key_expression(flavors, column)] if column else []
    if column != 'id':
        keys.append(flavors.c.id)
    with engine.reader() as conn:
        if marker is not None:
            found = conn.execute(sa.select(*keys).where(
                flavors.c.flavorid == marker)).first()
            if found is None:
                raise exception.MarkerNotFound(marker=marker)
            values = [sa.literal(value, key.type) for key, value in zip(keys, found)]
            query = query.where(after_marker(keys, [sort_dir] * len(keys), values,
                                              expand=False))
        query = query.order_by(*[k.desc() if sort_dir == 'desc' else k.asc() for k in keys])
        if limit is not None:
            query = query.limit(limit)
        return conn.execute(query).mappings().all()


def flavor_get(flavorid, project_id=None):
    """The flavor ``flavorid``, or None; with ``project_id`` (a member's)
    only when it is public or granted to that project, as Nova shows it."""
    if nul.in_any(str(flavorid)):
        return None
    query = sa.select(flavors).where(flavors.c.flavorid == str(flavorid))
    if project_id is not None:
        query = query.where(visible_to(project_id))
    with engine.reader() as conn:
        return conn.execute(query).mappings().first()
