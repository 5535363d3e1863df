"""Server JSON per microversion and role. Rows are SQL rows (mappings).

A ViewBuilder serves one request. Values that many servers of a page share
(flavor and image links, hostId, parsed metadata and security groups, the
status of a vm_state/task_state pair) are built once per request and the
same objects placed in every server that has them: nothing mutates a
rendered server, and the JSON is what building them anew would give.
"""
import functools
import json
import operator

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack.compute import server_access
from nova.compute import flavor_extra_specs
from nova.compute import host_status as hs
from nova.compute.host_id import host_id

PROGRESS_STATUSES = frozenset(('ACTIVE', 'BUILD', 'REBUILD', 'RESIZE',
                               'VERIFY_RESIZE', 'MIGRATING'))
FAULT_STATUSES = frozenset(('ERROR', 'DELETED'))

# the server columns each part of a view reads: a page reads only those of
# the parts its request shows
BASIC_COLUMNS = ('uuid', 'display_name')
_CORE_COLUMNS = (
    'uuid', 'display_name', 'project_id', 'user_id', 'host', 'vm_state', 'task_state',
    'image_ref', 'flavor_id', 'metadata', 'created_iso', 'updated_iso', 'disk_config',
    'access_ip_v4', 'access_ip_v6')
_DETAIL_ONLY_COLUMNS = (
    'progress', 'availability_zone', 'config_drive', 'key_name', 'launched_iso',
    'terminated_iso', 'power_state', 'security_groups')
_EXTENDED_COLUMNS = ('id', 'node')
_MORE_EXTENDED_COLUMNS = ('hostname', 'kernel_id', 'launch_index', 'ramdisk_id',
                          'reservation_id', 'root_device_name', 'user_data')
# the server's copy of its flavor (2.47 embeds it)
_FLAVOR_COPY_COLUMNS = ('flavor_name', 'vcpus', 'memory_mb', 'root_gb', 'ephemeral_gb',
                        'swap', 'flavor_extra_specs')
_DETAIL_COLUMNS = operator.itemgetter(*_CORE_COLUMNS)
_FLAVOR_COPY = operator.itemgetter(*_FLAVOR_COPY_COLUMNS)


class _PerRequest(dict):
    """{key: make(key)}, each value made on first use."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


@functools.cache
def _detail_columns(extended, more_attributes, locked, embedded_flavor, description, tags,
                    trusted_certs, locked_reason):
    columns = _CORE_COLUMNS + _DETAIL_ONLY_COLUMNS
    for shown, more in ((extended, _EXTENDED_COLUMNS),
                        (extended and more_attributes, _MORE_EXTENDED_COLUMNS),
                        (locked, ('locked',)),
                        (embedded_flavor, _FLAVOR_COPY_COLUMNS),
                        (description, ('display_description',)),
                        (tags, ('tags',)),
                        (trusted_certs, ('trusted_certs',)),
                        (locked_reason, ('locked_reason',))):
        if shown:
            columns += more
    return columns


def _embedded_flavor(copy, with_extra_specs):
    """The flavor a server keeps (2.47); {} when it has none, as Nova
    answers for a server whose flavor is gone."""
    name, vcpus, ram, disk, ephemeral, swap, extra_specs = copy
    if name is None:
        return {}
    flavor = {'vcpus': vcpus, 'ram': ram, 'disk': disk, 'ephemeral': ephemeral,
              'swap': swap, 'original_name': name}
    if with_extra_specs:
        # the flavor's extra specs when the server was created (JSON text)
        flavor['extra_specs'] = flavor_extra_specs.from_copy(extra_specs)
    return flavor


class ViewBuilder:
    """Configured once per request; renders any number of rows.

    ``view`` (server_access.ServerView) says which optional parts the
    caller sees; ``host_statuses`` is {host: host_status} for the rows to
    render when the view shows host_status.
    """

    def __init__(self, req, view=server_access.ServerView(), host_statuses=None):
        self.links = common.Links(req, 'servers')
        self.is_admin = req.context.is_admin
        self.extended = view.extended
        self.host_status_mode = view.host_status
        self.host_statuses = host_statuses
        self.more_attributes = req.at_least(avr.EXTENDED_ATTRIBUTES_MORE)
        self.locked = req.at_least(avr.LOCKED)
        links = self.links
        self._statuses = _PerRequest(lambda states: common.status_from_state(*states))
        self.description = req.at_least(avr.SERVER_DESCRIPTION)
        self.tags = req.at_least(avr.SERVER_TAGS)
        self.trusted_certs = req.at_least(avr.TRUSTED_CERTS)
        self.server_groups = req.at_least(avr.SERVER_GROUPS)
        # {server uuid: [its group's uuid]} where server_groups is shown
        self.groups = {}
        self.locked_reason = req.at_least(avr.LOCKED_REASON)
        self._trusted_certs = _PerRequest(lambda text: json.loads(text) if text else None)
        if req.at_least(avr.EMBEDDED_FLAVOR):
            self._flavor_key = _FLAVOR_COPY
            self._flavors = _PerRequest(
                lambda copy: _embedded_flavor(copy, view.flavor_extra_specs))
        else:
            self._flavor_key = operator.itemgetter('flavor_id')
            self._flavors = _PerRequest(lambda flavor_id: {
                'id': flavor_id, 'links': links.bookmark('flavors', flavor_id)})
        # tags come sorted, joined by ',' (no tag contains one), or None
        self._tags = _PerRequest(lambda text: text.split(',') if text else [])
        self._images = _PerRequest(lambda image_ref: {
            'id': image_ref, 'links': links.bookmark('images', image_ref)} if image_ref else '')
        self._host_ids = _PerRequest(lambda key: host_id(*key))
        self._metadata = _PerRequest(lambda text: json.loads(text) if text != '{}' else {})
        self._security_groups = _PerRequest(
            lambda text: [{'name': name} for name in json.loads(text)])

    @functools.cached_property
    def detail_columns(self):
        """The server columns detail() reads for this request."""
        return _detail_columns(self.extended, self.more_attributes, self.locked,
                               self._flavor_key is _FLAVOR_COPY, self.description,
                               self.tags, self.trusted_certs, self.locked_reason)

    def basic(self, row):
        return {'id': row['uuid'], 'name': row['display_name'],
                'links': self.links.pair(row['uuid'])}

    def detail(self, row, show=False):
        """The full server: detail's, or with ``show`` the single server's
        (which orders host_status and adds server_groups as Nova does)."""
        server = self._core(row)
        host = row['host']
        server['OS-EXT-AZ:availability_zone'] = row['availability_zone'] or ''
        server['config_drive'] = row['config_drive']
        server['key_name'] = row['key_name']
        server['OS-SRV-USG:launched_at'] = row['launched_iso']
        server['OS-SRV-USG:terminated_at'] = row['terminated_iso']
        if self.extended:
            self._extended_attributes(server, row)
        server['OS-EXT-STS:task_state'] = row['task_state']
        server['OS-EXT-STS:vm_state'] = row['vm_state']
        server['OS-EXT-STS:power_state'] = row['power_state']
        server['os-extended-volumes:volumes_attached'] = []
        security_groups = row['security_groups']
        if security_groups:
            server['security_groups'] = self._security_groups[security_groups]
        if self.locked:
            server['locked'] = bool(row['locked'])
        # Nova's order: host_status follows locked in show, ends detail
        if show:
            self._host_status(server, host)
            self._since_2_19(server, row, self.server_groups)
        else:
            self._since_2_19(server, row, False)
            self._host_status(server, host)
        return server

    def _host_status(self, server, host):
        mode = self.host_status_mode
        if mode is not None:
            status = self.host_statuses.get(host, hs.NONE)
            if mode == server_access.ALL or status == hs.UNKNOWN:
                server['host_status'] = status

    def updated(self, row):
        """The server as ``PUT /servers/{id}`` answers below 2.75: the
        core keys, locked, and what 2.19 and later add."""
        server = self._core(row)
        if self.locked:
            server['locked'] = bool(row['locked'])
        self._since_2_19(server, row, self.server_groups)
        return server

    def _since_2_19(self, server, row, server_groups):
        if self.description:
            server['description'] = row['display_description']
        if self.tags:
            server['tags'] = self._tags[row['tags']]
        if self.trusted_certs:
            server['trusted_image_certificates'] = self._trusted_certs[row['trusted_certs']]
        if server_groups:
            server['server_groups'] = self.groups.get(row['uuid'], [])
        if self.locked_reason:
            server['locked_reason'] = row['locked_reason']

    def _core(self, row):
        (uuid, name, project_id, user_id, host, vm_state, task_state, image_ref, flavor_id,
         metadata, created, updated, disk_config, ipv4, ipv6) = _DETAIL_COLUMNS(row)
        status = self._statuses[vm_state, task_state]
        server = {
            'accessIPv4': ipv4 or '',
            'accessIPv6': ipv6 or '',
            'addresses': {},
            'created': created,
            'flavor': self._flavors[self._flavor_key(row)],
            'hostId': self._host_ids[project_id, host],
            'id': uuid,
            'image': self._images[image_ref],
            'links': self.links.pair(uuid),
            'metadata': self._metadata[metadata],
            'name': name,
            'status': status,
            'tenant_id': project_id,
            'user_id': user_id,
            'updated': updated,
            'OS-DCF:diskConfig': disk_config,
        }
        if status in FAULT_STATUSES and row['fault_code'] is not None:
            server['fault'] = self._fault(row)
        if status in PROGRESS_STATUSES:
            server['progress'] = row['progress'] or 0
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
                 'created': row['fault_created_iso'],
                 'message': row['fault_message']}
        if row['fault_details'] and (self.is_admin or row['fault_code'] != 500):
            fault['details'] = row['fault_details']
        return fault
