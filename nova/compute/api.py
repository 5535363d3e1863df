"""Compute API: what the servers controller asks of the system."""
import json
import operator
import re
import secrets
import string
import uuid as uuidlib

import nova.conf
from nova.api.openstack import faults
from nova.compute import scheduler
from nova.db import api as db
from nova.db import engine
from nova import servicegroup

CONF = nova.conf.CONF

# How a page reads host_status (both ways read the same rows in the same
# transaction and give the same answer; only the cost differs, measured on
# SQLite in benchmarks/README.rst): joined beside each server in the page
# statement (about 1 us a server), or in one more statement for the page's
# distinct hosts (about 70 us, then 1.5 us a host). Pages of up to
# HOST_STATUS_JOIN_MAX servers always join; a longer page joins when the
# last long page this process served had more than one host for every two
# servers (thousands of hosts, few servers each). A hint, never an answer.
HOST_STATUS_JOIN_MAX = 100
_long_pages_join = False

NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.'
POWER_NOSTATE = 0


def get(context, uuid, with_host_status=False):
    """The server ``uuid``; non-admins only see their own project's servers.

    ``with_host_status`` reads it with its ``host_status_code``, decided by
    the database in the same statement (its host's service joined beside it).
    """
    project_id = None if context.is_admin else context.project_id
    with engine.reader() as conn:
        row = db.instance_get(conn, uuid, project_id, with_service=with_host_status)
    if row is None:
        raise faults.InstanceNotFound(uuid)
    return row


def get_all(filters, sort_keys, sort_dirs, limit, marker, with_host_status):
    """(rows, codes) of one page, in one read transaction.

    The page's marker is looked up inside the page statement. With
    ``with_host_status`` each server's status is read in that statement
    (each row carries ``host_status_code``; codes is None) or in one more
    for the page's hosts (codes is {host: host_status code}): see
    HOST_STATUS_JOIN_MAX. A marker that matches no server is a 400.
    """
    global _long_pages_join
    join = with_host_status and (limit <= HOST_STATUS_JOIN_MAX or _long_pages_join)
    with engine.reader() as conn:
        rows = db.instance_list(conn, filters, sort_keys, sort_dirs, limit, marker,
                                with_service=join)
        if not rows and marker is not None and db.instance_marker(conn, marker) is None:
            raise faults.BadRequest('marker [%s] not found' % marker)
        if not with_host_status:
            return rows, None
        hosts = None
        if join:
            codes = None
        else:
            hosts = set(map(operator.itemgetter('host'), rows))
            codes = db.host_status_codes(conn, hosts)
    if len(rows) > HOST_STATUS_JOIN_MAX:
        if hosts is None:
            hosts = set(map(operator.itemgetter('host'), rows))
        _long_pages_join = len(hosts) * 2 > len(rows)
    return rows, codes


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
    services = db.service_list(host=host, binary=db.COMPUTE_BINARY)
    return bool(services) and servicegroup.API().service_is_up(services[0])
