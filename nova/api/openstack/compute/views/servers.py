"""Server JSON per microversion and role. Rows are SQL rows (mappings)."""
import hashlib
import json

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common

PROGRESS_STATUSES = frozenset(('ACTIVE', 'BUILD', 'REBUILD', 'RESIZE',
                               'VERIFY_RESIZE', 'MIGRATING'))
FAULT_STATUSES = frozenset(('ERROR', 'DELETED'))


def host_id(project_id, host):
    """Opaque per-project host id: same host, same project → same value."""
    if not host:
        return ''
    return hashlib.sha224((project_id + host).encode('utf-8')).hexdigest()


class ViewBuilder:
    """Configured once per request; renders any number of rows."""

    def __init__(self, req):
        self.links = common.Links(req, 'servers')
        version = req.api_version
        self.is_admin = req.context.is_admin
        self.extended = None          # set by the controller after its policy check
        self.more_attributes = version.at_least(avr.EXTENDED_ATTRIBUTES_MORE)
        self.locked = version.at_least(avr.LOCKED)

    def basic(self, row):
        return {'id': row['uuid'], 'name': row['display_name'],
                'links': self.links.pair(row['uuid'])}

    def detail(self, row, host_status=None, show_host_status=False):
        uuid = row['uuid']
        status = common.status_from_state(row['vm_state'], row['task_state'])
        image_ref = row['image_ref']
        metadata = row['metadata']
        server = {
            'accessIPv4': row['access_ip_v4'] or '',
            'accessIPv6': row['access_ip_v6'] or '',
            'addresses': {},
            'created': common.isotime(row['created_at']),
            'flavor': {'id': row['flavor_id'],
                       'links': self.links.bookmark('flavors', row['flavor_id'])},
            'hostId': host_id(row['project_id'], row['host']),
            'id': uuid,
            'image': ({'id': image_ref, 'links': self.links.bookmark('images', image_ref)}
                      if image_ref else ''),
            'links': self.links.pair(uuid),
            'metadata': json.loads(metadata) if metadata != '{}' else {},
            'name': row['display_name'],
            'status': status,
            'tenant_id': row['project_id'],
            'user_id': row['user_id'],
            'updated': common.isotime(row['updated_at'] or row['created_at']),
            'OS-DCF:diskConfig': row['disk_config'],
        }
        if status in FAULT_STATUSES and row['fault_code'] is not None:
            server['fault'] = self._fault(row)
        if status in PROGRESS_STATUSES:
            server['progress'] = row['progress'] or 0
        server['OS-EXT-AZ:availability_zone'] = row['availability_zone'] or ''
        server['config_drive'] = row['config_drive']
        server['key_name'] = row['key_name']
        server['OS-SRV-USG:launched_at'] = common.isotime_micro(row['launched_at'])
        server['OS-SRV-USG:terminated_at'] = common.isotime_micro(row['terminated_at'])
        if self.extended:
            self._extended_attributes(server, row)
        server['OS-EXT-STS:task_state'] = row['task_state']
        server['OS-EXT-STS:vm_state'] = row['vm_state']
        server['OS-EXT-STS:power_state'] = row['power_state']
        server['os-extended-volumes:volumes_attached'] = []
        security_groups = row['security_groups']
        if security_groups:
            server['security_groups'] = [{'name': n} for n in json.loads(security_groups)]
        if self.locked:
            server['locked'] = bool(row['locked'])
        if show_host_status:
            server['host_status'] = host_status
        return server

    def _extended_attributes(self, server, row):
        server['OS-EXT-SRV-ATTR:host'] = row['host']
        server['OS-EXT-SRV-ATTR:instance_name'] = 'instance-%08x' % row['id']
        server['OS-EXT-SRV-ATTR:hypervisor_hostname'] = row['node']
        if self.more_attributes:
            server['OS-EXT-SRV-ATTR:hostname'] = row['hostname']
            server['OS-EXT-SRV-ATTR:kernel_id'] = row['kernel_id']
            server['OS-EXT-SRV-ATTR:launch_index'] = row['launch_index']
            server['OS-EXT-SRV-ATTR:ramdisk_id'] = row['ramdisk_id']
            server['OS-EXT-SRV-ATTR:reservation_id'] = row['reservation_id']
            server['OS-EXT-SRV-ATTR:root_device_name'] = row['root_device_name']
            server['OS-EXT-SRV-ATTR:user_data'] = row['user_data']

    def _fault(self, row):
        fault = {'code': row['fault_code'],
                 'created': common.isotime(row['fault_created_at']),
                 'message': row['fault_message']}
        if row['fault_details'] and (self.is_admin or row['fault_code'] != 500):
            fault['details'] = row['fault_details']
        return fault
