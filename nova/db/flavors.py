"""Flavor management: create and delete, and the projects granted a
private flavor (os-flavor-access). The lists and show (nova.db.api) ask
``visible_to`` which flavors a project may see."""
import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova import exception
from nova.db import engine
from nova.db.models import flavor_extra_specs, flavor_projects, flavors


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
    if '\x00' in str(flavorid):
        raise exception.FlavorNotFound(flavor_id=flavorid)   # PostgreSQL cannot bind it
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
