"""/servers: list, detail, show, create, update, delete."""
import base64
import binascii
import re
import uuid as uuidlib

from oslo_utils import strutils
from oslo_utils import uuidutils

import nova.conf
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack import wsgi
from nova.api.openstack.compute import server_access
from nova.api.openstack.compute.schemas import servers as schema
from nova.api.openstack.compute.views import servers as views
from nova.compute import api as compute
from nova.compute import server_groups
from nova import exception
from nova.policies import servers as sp
from nova import policy

CONF = nova.conf.CONF

# sort_key values Nova accepts -> our column (None: accepted, not sortable here)
SORT_KEYS = {
    'access_ip_v4': 'access_ip_v4', 'access_ip_v6': 'access_ip_v6',
    'auto_disk_config': 'disk_config', 'availability_zone': 'availability_zone',
    'config_drive': 'config_drive', 'created_at': 'created_at',
    'display_description': 'display_description', 'display_name': 'display_name',
    'host': 'host',
    'hostname': 'hostname', 'image_ref': 'image_ref', 'instance_type_id': 'flavor_id',
    'kernel_id': 'kernel_id', 'key_name': 'key_name', 'launch_index': 'launch_index',
    'launched_at': 'launched_at', 'locked': 'locked', 'locked_by': None, 'node': 'node',
    'power_state': 'power_state', 'progress': 'progress', 'project_id': 'project_id',
    'ramdisk_id': 'ramdisk_id', 'root_device_name': 'root_device_name',
    'task_state': 'task_state', 'terminated_at': 'terminated_at',
    'updated_at': 'updated_at', 'user_id': 'user_id', 'uuid': 'uuid',
    'vm_state': 'vm_state',
}
ADMIN_SORT_KEYS = frozenset(('host', 'node'))
TAG_FILTERS = ('tags', 'tags-any', 'not-tags', 'not-tags-any')
# update body key -> column
_UPDATABLE = (('name', 'display_name'), ('description', 'display_description'),
              ('accessIPv4', 'access_ip_v4'), ('accessIPv6', 'access_ip_v6'),
              ('OS-DCF:diskConfig', 'disk_config'))
_UUID_IN_HREF = re.compile(
    r'([0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12})/?$')


class ServersController:

    # ------------------------------------------------------------ reading

    @validation.documented(query=schema.list_query, response=schema.list_response)
    def index(self, req):
        access = server_access.list_access(req, sp.INDEX, sp.INDEX_ALL_TENANTS, detail=False)
        page, _ = self._list(req, access, views.BASIC_COLUMNS)
        builder = views.ViewBuilder(req)
        builder.read_positions(page.layout, detail=False)
        servers = [builder.basic(row) for row in page.rows]
        return self._collection(req, 'servers', servers)

    @validation.documented(query=schema.list_query, response=schema.detail_response)
    def detail(self, req):
        access = server_access.list_access(req, sp.DETAIL, sp.DETAIL_ALL_TENANTS, detail=True)
        builder = views.ViewBuilder(req, access.view)
        page, builder.host_statuses = self._list(req, access, builder.detail_columns)
        builder.read_positions(page.layout)
        servers = [builder.detail(row) for row in page.rows]
        return self._collection(req, 'servers/detail', servers)

    @validation.documented(response=schema.show_response)
    def show(self, req, server_id):
        context = req.context
        if context.is_admin:
            # policy may depend on the server's project: decided once the
            # row is read, which carries its host's service whenever 2.16
            # asks for host_status
            row, host_statuses = compute.show(context, server_id,
                                              req.at_least(avr.HOST_STATUS))
            view = server_access.server_view(req, row['project_id'])
        else:
            # a non-admin only ever sees their own project's servers, so
            # the view is decided before the read, and where policy hides
            # host_status the host's service is not joined at all
            view = server_access.server_view(req, context.project_id)
            row, host_statuses = compute.show(context, server_id,
                                              view.host_status is not None)
        policy.authorize(context, sp.SHOW, {'project_id': row['project_id']})
        builder = views.ViewBuilder(req, view, host_statuses)
        self._server_groups(req, builder, row)
        return {'server': builder.detail(row, show=True)}

    @staticmethod
    def _server_groups(req, builder, row):
        """From 2.71 show and update name the server's group."""
        if req.at_least(avr.SERVER_GROUPS):
            builder.groups = server_groups.groups_of([row['uuid']])

    @staticmethod
    def _collection(req, path, servers):
        body = {'servers': servers}
        links = common.next_link(req, path, servers, common.limit_param(req))
        if links:
            body['servers_links'] = links
        return body

    def _list(self, req, access, columns):
        """(the page's instance_db.PlainRows, {host: host_status} or None)"""
        context = req.context
        params = req.GET
        filters = {}
        if access.all_tenants:
            project = params.get('project_id') or params.get('tenant_id')
            if project:
                filters['project_id'] = project
        else:
            filters['project_id'] = context.project_id
        if access.all_filters:
            if params.get('host'):
                filters['host'] = params['host']
            if params.get('node'):
                filters['node'] = params['node']
        for param, key in (('image', 'image_ref'), ('flavor', 'flavor_id'),
                           ('reservation_id', 'reservation_id'), ('user_id', 'user_id')):
            if params.get(param):
                filters[key] = params[param]
        if params.get('name'):
            filters['name'] = self._name_pattern(params['name'])
        self._changes_filters(req, filters)
        if req.at_least(avr.LOCKED_REASON) and 'locked' in params:
            try:
                filters['locked'] = strutils.bool_from_string(params['locked'], strict=True)
            except ValueError as exc:
                raise faults.BadRequest(str(exc))
        status = params.get('status')
        if status:
            vm_states = common.STATUS_TO_VM_STATES.get(status.upper())
            if vm_states is None and req.at_least(avr.STATUS_FILTER_STRICT):
                raise faults.BadRequest('Invalid status value')
            if vm_states is None or (status.upper() == 'DELETED' and not context.is_admin):
                return compute.EMPTY_PAGE, None
            filters['vm_state'] = vm_states
            if status.upper() == 'DELETED':
                filters['include_deleted'] = True

        if req.at_least(avr.SERVER_TAGS):
            for param in TAG_FILTERS:
                if params.get(param):
                    filters[param.replace('-', '_')] = params[param].split(',')

        sort_keys, sort_dirs = self._sort_params(req)
        limit = common.limit_param(req)
        if limit == 0:
            return compute.EMPTY_PAGE, None
        return compute.get_all(filters, sort_keys, sort_dirs, limit, params.get('marker'),
                               access.view.host_status is not None, access.host_status_in,
                               columns)

    @staticmethod
    def _name_pattern(name):
        try:
            re.compile(name)
            return name
        except re.error:
            return re.escape(name)

    @staticmethod
    def _changes_filters(req, filters):
        """changes-since, and from 2.66 changes-before: the servers updated
        in that window, deleted ones included, as Nova lists them."""
        params = req.GET
        since = before = None
        if 'changes-since' in params:
            since = filters['changes_since'] = common.query_time(
                'changes-since', params['changes-since'])
        if req.at_least(avr.CHANGES_BEFORE) and 'changes-before' in params:
            before = filters['changes_before'] = common.query_time(
                'changes-before', params['changes-before'])
            if since is not None and since > before:
                raise faults.BadRequest('The value of changes-since must be less than or '
                                        'equal to changes-before.')
        if since is not None or before is not None:
            filters['include_deleted'] = True

    @staticmethod
    def _sort_params(req):
        keys = req.GET.getall('sort_key')
        dirs = req.GET.getall('sort_dir')
        for key in keys:
            if key not in SORT_KEYS:
                raise faults.BadRequest(
                    "Invalid input for query parameters sort_key. Value: %s. "
                    "'%s' is not one of %s" % (key, key, sorted(SORT_KEYS)))
            if key in ADMIN_SORT_KEYS and not req.context.is_admin:
                raise faults.Forbidden('Only administrators can sort servers by %s' % key)
        for direction in dirs:
            if direction not in ('asc', 'desc'):
                raise faults.BadRequest(
                    "Invalid input for query parameters sort_dir. Value: %s. "
                    "'%s' is not one of ['asc', 'desc']" % (direction, direction))
        if len(dirs) > len(keys):
            raise faults.BadRequest('The number of sort_keys and sort_dirs must be '
                                    'same')  # Nova's wording
        if not keys:
            return ['created_at', 'id'], ['desc', 'desc']
        dirs = dirs + [dirs[0] if dirs else 'desc'] * (len(keys) - len(dirs))
        columns, directions = [], []
        for key, direction in zip(keys, dirs):
            column = SORT_KEYS[key]
            if key == 'locked' and not req.at_least(avr.LOCKED_REASON):
                column = None     # accepted and ignored below 2.73, as Nova
            if column and column not in columns:
                columns.append(column)
                directions.append(direction)
        columns.append('id')
        directions.append(directions[0] if directions else 'desc')
        return columns, directions

    # ------------------------------------------------------------ writing

    @wsgi.status(202)
    @validation.documented(body=schema.create_v263, response=schema.create_response)
    def create(self, req):
        context = req.context
        body = validation.validate(req.json_body(), schema.create_for(req))
        policy.authorize(context, sp.CREATE,
                         {'project_id': context.project_id, 'user_id': context.user_id})
        server = body['server']
        min_count = int(server.get('min_count', 1))
        max_count = int(server.get('max_count', min_count))
        if min_count > max_count:
            raise faults.BadRequest('min_count must be <= max_count')
        if max_count > CONF.api.max_servers_per_request:
            raise faults.BadRequest('max_count may be at most %d'
                                    % CONF.api.max_servers_per_request)
        user_data = server.get('user_data')
        if user_data is not None:
            try:
                base64.b64decode(user_data, validate=True)
            except (binascii.Error, ValueError):
                raise faults.BadRequest('Userdata content cannot be decoded.')
        if not req.at_least(avr.NETWORKS_REQUIRED):
            # from 2.37 the schema refuses these
            self._check_network_uuids(server.get('networks') or ())
        if not req.at_least(avr.BDM_VOLUME_TYPE):
            self._check_no_volume_type(server.get('block_device_mapping_v2') or ())
        image_ref = self._image_uuid(server.get('imageRef'))
        config_drive = strutils.bool_from_string(server.get('config_drive', False))
        security_groups = [g['name'] for g in server.get('security_groups', [])]
        try:
            reservation_id, uuids = self._create(req, server, image_ref, max_count,
                                                 user_data, config_drive, security_groups,
                                                 self._group_hint(body))
        except exception.FlavorNotFound as exc:
            raise faults.BadRequest(exc.message)   # as Nova: the request names it
        except exception.KeypairNotFound:
            raise faults.BadRequest('Invalid key_name provided.')
        except exception.InstanceGroupNotFound as exc:
            raise faults.BadRequest(exc.message)     # as Nova: the hint names it
        if strutils.bool_from_string(server.get('return_reservation_id', False)):
            return {'reservation_id': reservation_id}
        links = common.Links(req, 'servers').pair(uuids[0])
        req.response_headers = [('Location', links[0]['href'])]   # as Nova: the self link
        return {'server': {
            'id': uuids[0],
            'links': links,
            'OS-DCF:diskConfig': server.get('OS-DCF:diskConfig', 'MANUAL'),
            'security_groups': [{'name': n} for n in (security_groups or ['default'])],
            'adminPass': server.get('adminPass') or compute.admin_password(),
        }}

    @staticmethod
    def _group_hint(body):
        """The server group the scheduler hints name (either key), or None."""
        for key in ('os:scheduler_hints', 'OS-SCH-HNT:scheduler_hints'):
            group = (body.get(key) or {}).get('group')
            if group:
                return group
        return None

    @staticmethod
    def _create(req, server, image_ref, max_count, user_data, config_drive,
                security_groups, group):
        # as Nova: below 2.19 the description is the name; networks (auto,
        # none or a list) are accepted and unused: there is no network
        # service, so servers have no addresses
        return compute.create(
            req.context, server['name'], image_ref, server['flavorRef'], max_count,
            availability_zone=server.get('availability_zone'),
            metadata=server.get('metadata'),
            security_groups=sorted(set(security_groups)),
            key_name=server.get('key_name'), user_data=user_data,
            config_drive='True' if config_drive else '',
            disk_config=server.get('OS-DCF:diskConfig', 'MANUAL'),
            access_ip_v4=server.get('accessIPv4'), access_ip_v6=server.get('accessIPv6'),
            display_description=server.get('description') if req.at_least(
                avr.SERVER_DESCRIPTION) else server['name'],
            tags=server.get('tags') or (), group=group,
            trusted_certs=server.get('trusted_image_certificates') if req.at_least(
                avr.TRUSTED_CERTS) else None)

    @staticmethod
    def _check_network_uuids(networks):
        """As Nova below 2.37: a network asked for by uuid (not by port)
        needs a well-formed one, though none is ever attached here."""
        for network in networks:
            uuid = network.get('uuid')
            if uuid is not None and not network.get('port') and not (
                    uuidutils.is_uuid_like(uuid)):
                raise faults.BadRequest('Bad networks format: network uuid is not in '
                                        'proper format (%s)' % uuid)

    @staticmethod
    def _check_no_volume_type(mappings):
        """As Nova's schema below 2.67: a block device mapping names no
        volume_type."""
        for index, mapping in enumerate(mappings):
            if 'volume_type' in mapping:
                raise faults.BadRequest(
                    "Invalid input for field/attribute %d. Value: %s. Additional properties "
                    "are not allowed ('volume_type' was unexpected)" % (index, mapping))

    @staticmethod
    def _image_uuid(image_ref):
        if image_ref is None:
            raise faults.BadRequest('Missing imageRef attribute')
        match = _UUID_IN_HREF.search(image_ref)
        if not match:
            raise faults.BadRequest('Invalid imageRef provided.')
        return str(uuidlib.UUID(match.group(1)))

    @validation.documented(body=schema.update_v219, response=schema.update_response)
    def update(self, req, server_id):
        context = req.context
        # as Nova: the body is judged first, then the server, then policy
        server = validation.validate(req.json_body(), schema.update_for(req))['server']
        row = compute.get(context, server_id)
        policy.authorize(context, sp.UPDATE,
                         {'user_id': row['user_id'], 'project_id': row['project_id']})
        values = {column: server[key] for key, column in _UPDATABLE if key in server}
        row = compute.update(context, row, **values) if values else compute.get(
            context, server_id)
        view = server_access.ServerView(flavor_extra_specs=server_access.flavor_extra_specs(
            req, {'project_id': row['project_id']}))
        builder = views.ViewBuilder(req, view)
        self._server_groups(req, builder, row)
        return {'server': builder.updated(row)}

    @wsgi.status(204)
    @validation.documented()
    def delete(self, req, server_id):
        row = compute.get(req.context, server_id)
        policy.authorize(req.context, sp.DELETE, {'project_id': row['project_id']})
        compute.delete(req.context, row)
