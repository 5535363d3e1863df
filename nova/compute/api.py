"""Compute API: what the servers controller asks of the system."""
import json
import operator
import re
import secrets
import string
import uuid as uuidlib

import nova.conf
from nova.api.openstack import faults
from nova.compute import host_status as hs
from nova.compute import scheduler
from nova.db import api as db
from nova.db import engine
from nova import servicegroup

CONF = nova.conf.CONF

NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.'
POWER_NOSTATE = 0


def host_status_by_host(conn, rows):
    """{host: host_status} for the hosts of ``rows``: one services query."""
    hosts = set(map(operator.itemgetter('host'), rows))
    hosts.discard(None)
    hosts.discard('')
    if not hosts:
        return {}
    group = servicegroup.API()
    services = group.services_for_hosts(conn, hosts, db.COMPUTE_BINARY)
    return {s['host']: hs.host_status(s, up) for s, up in group.services_up(services)}


def get(context, uuid, wants_host_status=None, with_host_service=None):
    """(row, {host: status}); non-admins only see their own project's servers.

    ``wants_host_status(row)`` decides, once the row is known, whether the
    host's status is needed; it runs inside the same read transaction. The
    host's live compute service is read in the same statement as the server
    (a join, no second query) when ``with_host_service`` (default: whenever
    ``wants_host_status`` is given): pass False where the microversion has
    no host_status.
    """
    if with_host_service is None:
        with_host_service = wants_host_status is not None
    project_id = None if context.is_admin else context.project_id
    with engine.reader() as conn:
        row = db.instance_get(conn, uuid, project_id, with_service=with_host_service)
        if row is None:
            raise faults.InstanceNotFound(uuid)
        statuses = {}
        if wants_host_status is not None and wants_host_status(row):
            statuses = _joined_host_status(row) if with_host_service else (
                host_status_by_host(conn, [row]))
    return row, statuses


def _joined_host_status(row):
    service = db.joined_service(row) if row['host'] else None
    if service is None:
        return {}
    return {row['host']: hs.host_status(service, servicegroup.API().service_is_up(service))}


def get_all(filters, sort_keys, sort_dirs, limit, marker, with_host_status):
    """(rows, {host: status}) of one page, in one read transaction: the page
    (its marker looked up inside the same statement) and, when asked, one
    services query. A marker that matches no server is a 400."""
    with engine.reader() as conn:
        rows = db.instance_list(conn, filters, sort_keys, sort_dirs, limit, marker)
        if not rows and marker is not None and db.instance_marker(conn, marker) is None:
            raise faults.BadRequest('marker [%s] not found' % marker)
        statuses = host_status_by_host(conn, rows) if with_host_status else {}
    return rows, statuses


def _hostname(display_name):
    name = re.sub(r'[^\w.-]+', '-', display_name.lower()).strip('.-')
    return name[:63] or 'server'


def _reservation_id():
    return 'r-' + ''.join(secrets.choice(string.ascii_lowercase + string.digits)
                          for _ in range(8))


def admin_password():
    return ''.join(secrets.choice(string.ascii_letters + string.digits) for _ in range(12))


def create(context, name, image_ref, flavor_id, count, availability_zone=None,
           metadata=None, security_groups=None, **attributes):
    # metadata and security_groups are JSON text columns of the instance row
    """Create ``count`` servers; returns (reservation_id, [uuid, ...]).

    Hosts are chosen now; each host's nova-compute builds its servers. With
    no valid host the servers go straight to ERROR with a fault.
    """
    if db.flavor_get(flavor_id) is None:
        raise faults.BadRequest('Flavor %s could not be found.' % flavor_id)
    zone = CONF.default_availability_zone
    if availability_zone not in (None, zone):
        raise faults.BadRequest('The requested availability zone is not available')
    hosts = scheduler.select_hosts(count)
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
            power_state=POWER_NOSTATE, progress=0, **attributes)
        if hosts:
            row.update(host=hosts[index], node=hosts[index], availability_zone=zone,
                       vm_state='building', task_state='scheduling')
        else:
            row.update(availability_zone=availability_zone or '',
                       vm_state='error', task_state=None)
        rows.append(row)
    db.instances_create(rows)
    if not hosts:
        for row in rows:
            db.instance_fault_create(row['uuid'], 500, NO_VALID_HOST,
                                     details='No enabled nova-compute service is up.')
    return reservation_id, [row['uuid'] for row in rows]


def delete(context, row):
    """Ask the host to delete the server, or delete it here when the host is
    not up (or there is none): users can always get rid of a server."""
    uuid = row['uuid']
    if row['locked'] and not context.is_admin:
        raise faults.Conflict('Instance %s is locked' % uuid)
    if row['host'] and _host_is_up(row['host']):
        if db.instance_update(uuid, task_state='deleting'):
            return
    db.instance_destroy(uuid)


def _host_is_up(host):
    group = servicegroup.API()
    with engine.reader() as conn:
        services = group.services_for_hosts(conn, {host}, db.COMPUTE_BINARY)
    return bool(services) and group.service_is_up(services[0])
