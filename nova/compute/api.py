"""Compute API: what the servers controller asks of the system."""
import json
import logging
import re
import secrets
import string
import uuid as uuidlib

import nova.conf
from nova.compute import access_ips
from nova.compute import flavor_extra_specs
from nova.compute import flavors
from nova.compute import group_policy
from nova.compute import keypairs
from nova.compute import host_status
from nova.compute import instance_actions
from nova.compute import scheduler
from nova.db import instance_tags as tag_db
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import server_groups as groups_db
from nova import exception
from nova import servicegroup
from nova.virt import fake

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.'
# get_all's rows of a page that reads nothing
EMPTY_PAGE = instance_db.EMPTY_PAGE


def get(context, uuid):
    """The server ``uuid``; non-admins only see their own project's servers."""
    return _get(context, uuid, with_service=False)


def _get(context, uuid, with_service, any_project=False):
    project_id = None if context.is_admin or any_project else context.project_id
    with engine.reader() as conn:
        row = instance_db.instance_get(conn, uuid, project_id, with_service=with_service)
    if row is None:
        raise exception.InstanceNotFound(instance_id=uuid)
    return row


def show(context, uuid, with_host_status):
    """(server, {its host: host_status} or None): one statement, its host's
    service joined beside it when host_status is asked for."""
    row = _get(context, uuid, with_service=with_host_status)
    if not with_host_status:
        return row, None
    return row, _host_statuses(service_db.joined_compute_services([row]))


def get_all(filters, sort_keys, sort_dirs, limit, marker, with_host_status,
            host_status_in=None, columns=None):
    """(rows, {host: host_status} or None) of one page, in one read
    transaction. The page's marker is looked up inside the page statement;
    one that matches no server is MarkerNotFound. ``host_status_in`` (a set
    of host_status.FILTERABLE values) keeps only the servers with one of
    them, in the page statement, so paging stays exact. ``columns`` (server
    column names) reads only those, as instance_db.PlainRows; None, all, as
    mappings."""
    states = live_hosts = None
    if host_status_in is not None:
        states = host_status.service_states(host_status_in)
        live_hosts = _all_hosts_up()
    # one plan for every page: each server's host service joined beside it
    # in the page statement (benchmarks/README.rst, "How host_status is read")
    with engine.reader() as conn:
        rows = instance_db.instance_list(conn, filters, sort_keys, sort_dirs, limit, marker,
                                         with_service=with_host_status, service_states=states,
                                         live_hosts=live_hosts, columns=columns,
                                         positional=columns is not None)
        page = rows if columns is None else rows.rows
        if not page and marker is not None and instance_db.instance_marker(conn, marker) is None:
            raise exception.MarkerNotFound(marker=marker)
    if not with_host_status:
        return rows, None
    services = service_db.joined_compute_services(
        page, None if columns is None else rows.layout)
    if live_hosts is not None:
        # the filter's answer and the page's agree: one read of liveness
        return rows, host_status.by_host(services, live_hosts)
    return rows, _host_statuses(services)


def _all_hosts_up():
    """Every live host, or None where the database itself decides (the db
    driver). Unknown liveness: only the hosts known up all the same are
    (the others, enabled, are UNKNOWN), as _host_statuses reads them."""
    try:
        return servicegroup.API().all_hosts_up()
    except exception.ServiceGroupUnavailable as exc:
        LOG.warning('liveness unavailable: %s', exc)
        return set(exc.hosts_up)


def host_statuses(services):
    """{host: host_status} of ``services`` ({host: its compute service row
    with is_up}), liveness read once for them all."""
    return _host_statuses(services)


def _host_statuses(services):
    try:
        hosts_up = servicegroup.API().hosts_up(services)
    except exception.ServiceGroupUnavailable as exc:
        # Liveness is unknown, not down: enabled hosts read UNKNOWN, but
        # for those known up all the same (so a show and a page agree)
        LOG.warning('liveness unavailable: %s', exc)
        hosts_up = exc.hosts_up
    return host_status.by_host(services, hosts_up)


def _hostname(display_name):
    name = re.sub(r'[^\w.-]+', '-', display_name.lower()).strip('.-')
    return name[:63] or 'server'


def _reservation_id():
    return 'r-' + ''.join(secrets.choice(string.ascii_lowercase + string.digits)
                          for _ in range(8))


def admin_password():
    return ''.join(secrets.choice(string.ascii_letters + string.digits) for _ in range(12))


def create(context, name, image_ref, flavor_id, count, availability_zone=None,
           metadata=None, security_groups=None, tags=(), trusted_certs=None, group=None,
           **attributes):
    # metadata, security_groups and trusted_certs are JSON text columns of
    # the instance row
    """Create ``count`` servers; returns (reservation_id, [uuid, ...]).

    Hosts are chosen now; each host's nova-compute builds its servers. With
    no valid host the servers go straight to ERROR with a fault. ``group``
    (a server group's uuid, the ``group`` scheduler hint) makes them its
    members: its policy chooses their hosts, and they are written under
    the group's lock, chosen again if a create in the same group took
    their hosts meanwhile.
    """
    flavor = flavors.get(context, flavor_id)
    if attributes.get('key_name') is not None:
        # as Nova: the caller's own keypair (KeypairNotFound otherwise)
        keypairs.get(context.user_id, attributes['key_name'])
    # the server keeps the flavor as it is now, extra specs too (2.47)
    extra_specs = flavor_extra_specs.for_flavor(flavor)
    zone = CONF.default_availability_zone
    if availability_zone not in (None, zone):
        raise exception.AvailabilityZoneNotAvailable()
    group_row = _group(group) if group is not None else None

    def new_rows(hosts):
        return _rows(context, name, image_ref, flavor, flavor_id, count, hosts,
                     availability_zone, metadata, security_groups, trusted_certs,
                     extra_specs, zone, attributes)
    for _ in range(_GROUP_ATTEMPTS):
        hosts = scheduler.select_hosts(count, extra_specs, group=group_row)
        rows = new_rows(hosts)
        # recorded first: a compute that builds at once finds its action
        # (one for a server never written is never shown)
        instance_actions.record(context, [row['uuid'] for row in rows],
                                instance_actions.CREATE)
        if group_row is None:
            instance_db.instances_create(rows, tags)
            break
        if _create_members(group_row, rows, tags, hosts):
            break
    else:
        # every placement raced with another of the group's: no valid host
        hosts = None
        rows = new_rows(hosts)
        instance_actions.record(context, [row['uuid'] for row in rows],
                                instance_actions.CREATE)
        _create_members(group_row, rows, tags, hosts)
    if not hosts:
        for row in rows:
            instance_db.instance_fault_create(row['uuid'], 500, NO_VALID_HOST,
                                              details='No enabled nova-compute service is up.')
            instance_actions.event_record(row['uuid'], instance_actions.CREATE,
                                          instance_actions.SCHEDULE_EVENT, CONF.host,
                                          instance_actions.ERROR)
    return rows[0]['reservation_id'], [row['uuid'] for row in rows]


# placements of one group tried before its servers go to ERROR (creates
# racing for the same hosts)
_GROUP_ATTEMPTS = 3


def _group(uuid):
    row = groups_db.get_row(uuid)
    if row is None:
        raise exception.InstanceGroupNotFound(group_uuid=uuid)
    return row


def _create_members(group_row, rows, tags, hosts):
    rules = groups_db.rules_of(group_row)

    def still_valid(member_hosts):
        placement = group_policy.Placement(group_row['policy'], rules, member_hosts)
        return placement.accepts(hosts or ())
    try:
        return groups_db.create_members(group_row['id'], rows, tags, still_valid,
                                        CONF.quota.server_group_members)
    except groups_db.OverQuota:
        raise exception.ServerGroupMembersQuotaExceeded()
    except groups_db.GroupGone:
        raise exception.InstanceGroupNotFound(group_uuid=group_row['uuid'])


def _rows(context, name, image_ref, flavor, flavor_id, count, hosts, availability_zone,
          metadata, security_groups, trusted_certs, extra_specs, zone, attributes):
    reservation_id = _reservation_id()
    rows = []
    for index in range(count):
        display_name = name if count == 1 else '%s-%d' % (name, index + 1)
        row = dict(
            uuid=str(uuidlib.uuid4()), display_name=display_name,
            hostname=_hostname(display_name), project_id=context.project_id,
            user_id=context.user_id, image_ref=image_ref, flavor_id=str(flavor_id),
            reservation_id=reservation_id, launch_index=index,
            metadata=json.dumps(metadata or {}),
            security_groups=json.dumps(security_groups) if security_groups else None,
            trusted_certs=json.dumps(trusted_certs) if trusted_certs else None,
            power_state=fake.POWER_NOSTATE, progress=0,
            **instance_db.flavor_copy(flavor, extra_specs),
            **access_ips.normalized(attributes))
        if hosts:
            row.update(host=hosts[index], node=hosts[index], availability_zone=zone,
                       vm_state='building', task_state='scheduling')
        else:
            row.update(availability_zone=availability_zone or '',
                       vm_state='error', task_state=None)
        rows.append(row)
    return rows


def delete(context, row):
    """Ask the host to delete the server, or delete it here when the host is
    not up (or there is none): users can always get rid of a server."""
    uuid = row['uuid']
    if row['locked'] and not context.is_admin:
        raise exception.InstanceLocked(instance_uuid=uuid)
    host_is_up = bool(row['host']) and _host_is_up(row['host'])
    # the action with its change: the host's compute may look at once
    with engine.writer() as conn:
        instance_actions.record(context, [uuid], instance_actions.DELETE, conn=conn)
        if not (host_is_up and instance_db.instance_update(uuid, task_state='deleting',
                                                           conn=conn)):
            instance_db.instance_destroy(uuid, conn=conn)


def _host_is_up(host):
    """Raises ServiceGroupUnavailable when liveness cannot be read: a local
    delete then could orphan a server on a live compute."""
    services = service_db.service_list(host=host, binary=service_db.COMPUTE_BINARY)
    return bool(services) and servicegroup.API().service_is_up(services[0])


def update(context, row, **values):
    """Set user-editable columns of a server (name, description, access
    IPs, disk config); returns the server as read after the change."""
    if not instance_db.instance_update(row['uuid'], **access_ips.normalized(values)):
        raise exception.InstanceNotFound(instance_id=row['uuid'])
    return get(context, row['uuid'])


# ------------------------------------------------------------------ tags
#
# As Nova: a server of any project is looked up (so another project's caller
# is refused by policy, not told it is absent), and tags are written only
# while the server is in one of these states.

MAX_TAGS = 50
TAG_WRITABLE_VM_STATES = frozenset(('active', 'paused', 'suspended', 'stopped'))


def get_for_tags(context, uuid):
    try:
        return _get(context, uuid, with_service=False, any_project=True)
    except exception.InstanceNotFound:
        raise exception.InstanceMappingNotFound(uuid=uuid)


def tags(uuid):
    with engine.reader() as conn:
        return tag_db.tags_get(conn, uuid)


def check_tag_writable(row, action):
    if row['vm_state'] not in TAG_WRITABLE_VM_STATES:
        raise exception.InstanceInvalidState(action=action, instance_uuid=row['uuid'],
                                             attr='vm_state', state=row['vm_state'])


def tag_add(row, tag):
    """True when added, False when the server already had it."""
    check_tag_writable(row, 'update tag')
    result = tag_db.tag_add(row['uuid'], tag, MAX_TAGS)
    if result is None:
        raise exception.InstanceNotFound(instance_id=row['uuid'])
    added, existing = result
    if not added and len(existing) >= MAX_TAGS:
        # Nova judges the limit before looking for the tag
        raise exception.TooManyInstanceTags(limit=MAX_TAGS)
    return added


def tags_set(row, new_tags):
    check_tag_writable(row, 'update tags')
    result = tag_db.tags_set(row['uuid'], new_tags)
    if result is None:
        raise exception.InstanceNotFound(instance_id=row['uuid'])
    return result


def tag_delete(row, tag):
    check_tag_writable(row, 'delete tag')
    if not _deleted(row, tag):
        raise exception.InstanceTagNotFound(instance_id=row['uuid'], tag=tag)


def tags_delete_all(row):
    check_tag_writable(row, 'delete tags')
    _deleted(row, None)


def _deleted(row, tag):
    count = tag_db.tag_delete(row['uuid'], tag)
    if count is None:
        raise exception.InstanceNotFound(instance_id=row['uuid'])
    return count
