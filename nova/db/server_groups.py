"""Server groups (os-server-groups) and their members.

A server belongs to at most one group (a unique instance_uuid). Members are
always read joined to the live servers, so a deleted server leaves its
group at once, whichever path deleted it. Every write that places a member
on a host (a create, an evacuation's claim) first UPDATEs its group's row:
placements in one group are judged one after the other, on the state the
one before left, on every backend.
"""
import collections
import json

import sqlalchemy as sa

import nova.conf

from nova.db import instances as instance_db
from nova.db import engine
from nova.db import liveness
from nova.db import nul
from nova.db.dbtime import db_now
from nova.db.models import instance_group_members as members
from nova.db.models import instance_groups as groups
from nova.db.models import COMPUTE_BINARY, instances, migrations, services

CONF = nova.conf.CONF
_OPEN_EVACUATION = ('accepted',)


class OverQuota(Exception):
    pass


class GroupGone(Exception):
    pass


def _rules_text(rules):
    return json.dumps(rules, sort_keys=True) if rules else None


def rules_of(row):
    return json.loads(row['rules']) if row['rules'] else {}


def create(uuid, name, project_id, user_id, policy, rules, limit):
    """Store a group; OverQuota (nothing stored) when its project would
    then have more than ``limit`` (-1: no limit). Written first, then
    counted in the same transaction (on SQLite a transaction that read
    first cannot take the write lock once another writer committed)."""
    with engine.writer() as conn:
        conn.execute(sa.insert(groups).values(
            uuid=uuid, name=name, project_id=project_id, user_id=user_id, policy=policy,
            rules=_rules_text(rules), created_at=db_now()))
        if limit >= 0 and _count(conn, project_id) > limit:
            raise OverQuota()
    return get_row(uuid)


def _count(conn, project_id):
    return conn.scalar(sa.select(sa.func.count()).select_from(groups)
                       .where(groups.c.project_id == project_id))


def get_row(uuid):
    """The group row alone, or None."""
    if nul.in_any(uuid):
        return None
    with engine.reader() as conn:
        return conn.execute(sa.select(groups).where(groups.c.uuid == uuid)).mappings().first()


def get(uuid):
    """(the group, its live members' uuids) or None."""
    if nul.in_any(uuid):
        return None
    with engine.reader() as conn:
        row = conn.execute(sa.select(groups).where(groups.c.uuid == uuid)).mappings().first()
        if row is None:
            return None
        return row, live_members(conn, [row['id']])[row['id']]


def page(project_id=None, limit=None, offset=0):
    """[(group, its live members)] of one project (None: all), oldest
    first, ``offset`` skipped, at most ``limit``; two statements."""
    query = sa.select(groups).order_by(groups.c.id)
    if project_id is not None:
        query = query.where(groups.c.project_id == project_id)
    if offset:
        query = query.offset(offset)
    if limit is not None:
        query = query.limit(limit)
    with engine.reader() as conn:
        rows = conn.execute(query).mappings().all()
        found = live_members(conn, [r['id'] for r in rows]) if rows else {}
    return [(row, found[row['id']]) for row in rows]


def live_members(conn, group_ids):
    """{group id: [uuid of each live member, in the order they joined]}."""
    found = {group_id: [] for group_id in group_ids}
    for group_id, uuid in conn.execute(
            sa.select(members.c.group_id, members.c.instance_uuid)
            .join(instances, sa.and_(instances.c.uuid == members.c.instance_uuid,
                                     instances.c.deleted == 0))
            .where(members.c.group_id.in_(group_ids)).order_by(members.c.id)):
        found[group_id].append(uuid)
    return found


def destroy(uuid):
    """Delete a group and its memberships; False when there was none.
    Writes only (SQLite: no read-to-write upgrade)."""
    if nul.in_any(uuid):
        return False
    this_group = sa.select(groups.c.id).where(groups.c.uuid == uuid)
    with engine.writer() as conn:
        conn.execute(sa.delete(members).where(members.c.group_id.in_(this_group)))
        return conn.execute(sa.delete(groups).where(groups.c.uuid == uuid)).rowcount == 1


def groups_of(uuids):
    """{server uuid: its group's uuid} for the servers that have one."""
    with engine.reader() as conn:
        return dict(conn.execute(
            sa.select(members.c.instance_uuid, groups.c.uuid)
            .join(groups, groups.c.id == members.c.group_id)
            .where(members.c.instance_uuid.in_(list(uuids)))).all())


def group_row_of(instance_uuid):
    """The group row of a server, or None."""
    with engine.reader() as conn:
        return group_of(conn, instance_uuid)


def group_of(conn, instance_uuid):
    """The group row of a server, or None."""
    return conn.execute(
        sa.select(groups).join(members, members.c.group_id == groups.c.id)
        .where(members.c.instance_uuid == instance_uuid)).mappings().first()


def member_hosts(conn, group_id, exclude=None):
    """Counter {host: live members there} of a group, a server ``exclude``
    (the one being placed) left out. A member whose evacuation is asked
    and not yet claimed counts on its destination, where it is headed,
    and not on the host it is leaving."""
    dest = (sa.select(migrations.c.dest_compute)
            .where(migrations.c.open_instance_uuid == instances.c.uuid,
                   migrations.c.status.in_(_OPEN_EVACUATION))
            .limit(1).scalar_subquery())
    query = (sa.select(instances.c.uuid, sa.func.coalesce(dest, instances.c.host))
             .join(members, members.c.instance_uuid == instances.c.uuid)
             .where(members.c.group_id == group_id, instances.c.deleted == 0))
    if exclude is not None:
        query = query.where(instances.c.uuid != exclude)
    return collections.Counter(host for _, host in conn.execute(query) if host)


def placed_hosts(conn, group_id, exclude):
    """Counter {host: live members running or claimed there}, ``exclude``
    left out: what a destination's late check judges by."""
    return collections.Counter(host for (host,) in conn.execute(
        sa.select(instances.c.host)
        .join(members, members.c.instance_uuid == instances.c.uuid)
        .where(members.c.group_id == group_id, instances.c.deleted == 0,
               instances.c.uuid != exclude, instances.c.host.is_not(None))))


def lock_group_of(conn, instance_uuid):
    """Take the row lock of a server's group (if it has one) as the first
    read of the caller's transaction of it, so what is read next is what
    the placements before left (InnoDB's snapshot starts at that read).
    False when the server has no group."""
    return conn.execute(sa.update(groups).where(groups.c.id.in_(
        sa.select(members.c.group_id).where(members.c.instance_uuid == instance_uuid)
        .scalar_subquery())).values(updated_at=db_now())).rowcount > 0


def lock(conn, group_id):
    """Take the group's row lock for the rest of the caller's transaction;
    False when the group is gone."""
    return conn.execute(sa.update(groups).where(groups.c.id == group_id)
                        .values(updated_at=db_now())).rowcount == 1


def count_members(conn, group_id):
    """How many live servers the group holds."""
    return conn.scalar(
        sa.select(sa.func.count()).select_from(members)
        .join(instances, sa.and_(instances.c.uuid == members.c.instance_uuid,
                                 instances.c.deleted == 0))
        .where(members.c.group_id == group_id))


def create_members(group_id, rows, tags, still_valid, limit):
    """Insert new servers (``rows``, as db.api.instances_create) as members
    of a group, in one transaction under the group's lock. First
    ``still_valid(member_hosts)`` must accept their hosts as the group is
    now (a create of the same group that committed meanwhile may have
    taken them), and the group must have room for them under ``limit``
    (-1: none). Returns False (nothing written) when the hosts no longer
    fit; raises OverQuota when there is no room."""
    with engine.writer() as conn:
        if not lock(conn, group_id):
            raise GroupGone()      # deleted since it was read
        if limit >= 0 and count_members(conn, group_id) + len(rows) > limit:
            raise OverQuota()
        if not still_valid(member_hosts(conn, group_id)):
            return False
        instance_db.instances_insert(conn, rows, tags)
        conn.execute(sa.insert(members), [
            {'group_id': group_id, 'instance_uuid': row['uuid']} for row in rows])
    return True


def members_with_services(conn, uuids):
    """[(uuid, host, its host's compute service row with is_up, or None)]
    of live servers, in one statement."""
    joined = sa.and_(services.c.host == instances.c.host, services.c.deleted == 0,
                     services.c.binary == COMPUTE_BINARY)
    rows = conn.execute(
        sa.select(instances.c.uuid, instances.c.host, services.c.disabled,
                  services.c.forced_down, services.c.host.label('service_host'),
                  liveness.is_up(services).label('is_up'))
        .select_from(instances.outerjoin(services, joined))
        .where(instances.c.uuid.in_(list(uuids)), instances.c.deleted == 0),
        {'service_down_time': CONF.service_down_time}).mappings().all()
    return [(r['uuid'], r['host'], None if r['service_host'] is None else {
        'host': r['host'], 'binary': COMPUTE_BINARY, 'disabled': r['disabled'],
        'forced_down': r['forced_down'], 'is_up': r['is_up']}) for r in rows]
