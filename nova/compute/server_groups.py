"""Server groups: created within the project's quota ([quota]
server_groups), listed, shown with their live members, deleted (their
servers stay); and the group hint of a server create, held to
[quota] server_group_members."""
import logging
import uuid as uuidlib

import nova.conf
from nova.compute import api as compute_api
from nova.compute import group_policy
from nova.compute import host_status as host_status_mod
from nova.db import engine as db_engine
from nova.db import server_groups as db
from nova import exception

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def create(context, name, policy, rules=None):
    """(the new group, its members: none)."""
    try:
        row = db.create(str(uuidlib.uuid4()), name, context.project_id, context.user_id,
                        policy, rules, CONF.quota.server_groups)
    except db.OverQuota:
        raise exception.ServerGroupQuotaExceeded()
    return row


def get(uuid):
    """(the group, its live members); InstanceGroupNotFound otherwise."""
    found = db.get(uuid)
    if found is None:
        raise exception.InstanceGroupNotFound(group_uuid=uuid)
    return found


# past any table's rows (and past what a database binds as an integer)
_OFFSET_BEYOND = 2 ** 62


def page(project_id=None, limit=None, offset=0):
    if offset >= _OFFSET_BEYOND:
        return []
    return db.page(project_id, limit, offset)


def delete(uuid):
    if not db.destroy(uuid):
        raise exception.InstanceGroupNotFound(group_uuid=uuid)


def rules_of(row):
    return db.rules_of(row)


def groups_of(uuids):
    """{server uuid: [its group's uuid]} (Nova's server_groups key)."""
    return {uuid: [group] for uuid, group in db.groups_of(uuids).items()}


def group_row_of(instance_uuid):
    """The group row of a server, or None."""
    return db.group_row_of(instance_uuid)


def late_check(conn, instance_uuid, host):
    """Why the server may not be placed on ``host`` (its group's hard
    policy, against where its other members run or have been claimed), or
    None; in the caller's transaction, under the group's lock, so two
    destinations claiming members of one group at once are judged one
    after the other (evacuations.claim's late_check)."""
    if not db.lock_group_of(conn, instance_uuid):
        return None     # no group: nothing more read
    group = db.group_of(conn, instance_uuid)
    if group is None:
        return None
    placement = group_policy.Placement(group['policy'], db.rules_of(group),
                                       db.placed_hosts(conn, group['id'], instance_uuid))
    reason = placement.violation(host)
    if reason is not None:
        LOG.warning('server %s refused on %s: %s (group %s)', instance_uuid, host, reason,
                    group['uuid'])
    return reason


# the host_status values that mean a member may be gone
AT_RISK = ('UNKNOWN', 'DOWN')


def host_status(uuid):
    """How a group stands (ours, beyond Nova): (the group, [(member uuid,
    its host, its host_status)]), in two statements and one liveness
    read."""
    row, members = get(uuid)
    with db_engine.reader() as conn:
        found = db.members_with_services(conn, members)
    statuses = compute_api.host_statuses(
        {host: service for _, host, service in found if service is not None})
    order = {member: index for index, member in enumerate(members)}
    return row, sorted(((member, host, statuses.get(host, host_status_mod.NONE))
                        for member, host, _ in found), key=lambda m: order[m[0]])
