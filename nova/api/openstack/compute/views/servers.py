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
_FAULT_COLUMNS = ('fault_code', 'fault_created_iso', 'fault_message', 'fault_details')


class _PerRequest(dict):
    """{key: make(key)}, each value made on first use."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


def _getter(layout, names):
    """The values of ``names`` in a row, as a tuple (one name: the value):
    by key from a mapping row (layout None), by position from a plain tuple
    whose values ``layout`` names in order."""
    if layout is not None:
        names = [layout.index(name) for name in names]
    return operator.itemgetter(*names)


@functools.lru_cache(maxsize=1024)
def _getters(layout, shown):
    """The ViewBuilder's getters of a row's values for rows named by
    ``layout``: basic()'s, and with ``shown`` (which optional parts the view
    shows) every view's. Only the parts shown get one: a page's rows hold
    only the columns those read."""
    (extended, more_attributes, locked, embedded_flavor, description, tags, trusted_certs,
     locked_reason) = shown or (False,) * 8

    def get(names, wanted=True):
        return _getter(layout, names) if wanted else None
    getters = {'_basic_values': get(BASIC_COLUMNS)}
    if shown:
        getters.update(
            _core_values=get(_CORE_COLUMNS),
            _detail_values=get(_DETAIL_ONLY_COLUMNS),
            _fault_values=get(_FAULT_COLUMNS),
            _progress=get(('progress',)),
            _flavor_key=get(_FLAVOR_COPY_COLUMNS if embedded_flavor else ('flavor_id',)),
            _extended_values=get(_EXTENDED_COLUMNS, extended),
            _more_values=get(_MORE_EXTENDED_COLUMNS, extended and more_attributes),
            _locked=get(('locked',), locked),
            _description=get(('display_description',), description),
            _tags_text=get(('tags',), tags),
            _trusted_certs_text=get(('trusted_certs',), trusted_certs),
            _locked_reason=get(('locked_reason',), locked_reason),
            _uuid=get(('uuid',)))
    return getters


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
    render when the view shows host_status. Rows are mappings, or plain
    tuples once read_positions() names their values.
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
        self.embedded_flavor = req.at_least(avr.EMBEDDED_FLAVOR)
        if self.embedded_flavor:
            self._flavors = _PerRequest(
                lambda copy: _embedded_flavor(copy, view.flavor_extra_specs))
        else:
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
        self.read_positions(None)

    def read_positions(self, layout, detail=True):
        """Read rows as plain tuples whose values ``layout`` names (None:
        mappings), for basic() only or (``detail``) for every view."""
        self.__dict__.update(_getters(layout, detail and self._shown))

    @property
    def _shown(self):
        """Which optional parts of a server this view shows."""
        return (self.extended, self.more_attributes, self.locked, self.embedded_flavor,
                self.description, self.tags, self.trusted_certs, self.locked_reason)

    @functools.cached_property
    def detail_columns(self):
        """The server columns detail() reads for this request."""
        return _detail_columns(*self._shown)

    def basic(self, row):
        uuid, name = self._basic_values(row)
        return {'id': uuid, 'name': name, 'links': self.links.pair(uuid)}

    def detail(self, row, show=False):
        """The full server: detail's, or with ``show`` the single server's
        (which orders host_status and adds server_groups as Nova does)."""
        server, host, vm_state, task_state = self._core(row)
        (_, availability_zone, config_drive, key_name, launched, terminated, power_state,
         security_groups) = self._detail_values(row)
        server['OS-EXT-AZ:availability_zone'] = availability_zone or ''
        server['config_drive'] = config_drive
        server['key_name'] = key_name
        server['OS-SRV-USG:launched_at'] = launched
        server['OS-SRV-USG:terminated_at'] = terminated
        if self.extended:
            self._extended_attributes(server, row, host)
        server['OS-EXT-STS:task_state'] = task_state
        server['OS-EXT-STS:vm_state'] = vm_state
        server['OS-EXT-STS:power_state'] = power_state
        server['os-extended-volumes:volumes_attached'] = []
        if security_groups:
            server['security_groups'] = self._security_groups[security_groups]
        if self.locked:
            server['locked'] = bool(self._locked(row))
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
        server = self._core(row)[0]
        if self.locked:
            server['locked'] = bool(self._locked(row))
        self._since_2_19(server, row, self.server_groups)
        return server

    def _since_2_19(self, server, row, server_groups):
        if self.description:
            server['description'] = self._description(row)
        if self.tags:
            server['tags'] = self._tags[self._tags_text(row)]
        if self.trusted_certs:
            server['trusted_image_certificates'] = self._trusted_certs[
                self._trusted_certs_text(row)]
        if server_groups:
            server['server_groups'] = self.groups.get(self._uuid(row), [])
        if self.locked_reason:
            server['locked_reason'] = self._locked_reason(row)

    def _core(self, row):
        """(the keys every view of a server has, its host, vm_state, task_state)"""
        (uuid, name, project_id, user_id, host, vm_state, task_state, image_ref, flavor_id,
         metadata, created, updated, disk_config, ipv4, ipv6) = self._core_values(row)
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
        if status in FAULT_STATUSES:
            code, fault_created, message, details = self._fault_values(row)
            if code is not None:
                fault = {'code': code, 'created': fault_created, 'message': message}
                if details and (self.is_admin or code != 500):
                    fault['details'] = details
                server['fault'] = fault
        if status in PROGRESS_STATUSES:
            server['progress'] = self._progress(row) or 0
        return server, host, vm_state, task_state

    def _extended_attributes(self, server, row, host):
        server_id, node = self._extended_values(row)
        server['OS-EXT-SRV-ATTR:host'] = host
        server['OS-EXT-SRV-ATTR:instance_name'] = 'instance-%08x' % server_id
        server['OS-EXT-SRV-ATTR:hypervisor_hostname'] = node
        if self.more_attributes:
            (server['OS-EXT-SRV-ATTR:hostname'], server['OS-EXT-SRV-ATTR:kernel_id'],
             server['OS-EXT-SRV-ATTR:launch_index'], server['OS-EXT-SRV-ATTR:ramdisk_id'],
             server['OS-EXT-SRV-ATTR:reservation_id'],
             server['OS-EXT-SRV-ATTR:root_device_name'],
             server['OS-EXT-SRV-ATTR:user_data']) = self._more_values(row)
