"""/flavors: list, detail, show; an admin's create, update (the
description, 2.55) and delete."""
from oslo_utils import strutils

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack import wsgi
from nova.api.openstack.compute.schemas import flavors as schema
from nova.api.openstack.compute.views import flavors as views
from nova.compute import flavors
from nova.policies import flavor_manage as policies
from nova import policy


def _page(req, path, detail):
    """The flavors a list asks for, as Nova filters and pages them, in
    the list's or (``detail``) the full view; a ``flavors_links`` next link
    when the page is full."""
    validation.validate_query(req, schema.index_query)
    params = req.GET
    filters = {}
    if req.context.is_admin:
        # only admins choose; everyone else sees the enabled public flavors
        filters['is_public'] = _is_public(params.get('is_public'))
    else:
        filters.update(is_public=True, disabled=False)
    for param, key in (('minRam', 'min_memory_mb'), ('minDisk', 'min_root_gb')):
        if param in params:
            try:
                filters[key] = int(params[param])
            except ValueError:
                raise faults.BadRequest('Invalid %s filter [%s]' % (param, params[param]))
    limit = common.limit_param(req)
    # an unknown marker is MarkerNotFound: 400 "marker [x] not found"
    rows = flavors.get_all(sort_key=params.get('sort_key') or 'flavorid',
                          sort_dir=params.get('sort_dir') or 'asc',
                          limit=limit, marker=params.get('marker'),
                          project_id=req.context.project_id, **filters)
    builder = views.ViewBuilder(req)
    if detail:
        builder.prefetch(rows)
    view = builder.detail if detail else builder.basic
    body = {'flavors': [view(row) for row in rows]}
    next_link = common.next_link(req, path, body['flavors'], limit)
    if next_link:
        body['flavors_links'] = next_link
    return body


def _is_public(text):
    """An admin's ?is_public: absent, public only; 'none', every flavor."""
    if text is None:
        return True
    if text.lower() == 'none':
        return None
    try:
        return strutils.bool_from_string(text, strict=True)
    except ValueError:
        raise faults.BadRequest('Invalid is_public filter [%s]' % text)


class FlavorsController:

    @validation.documented(query=schema.index_query, response=schema.list_response)
    def index(self, req):
        return _page(req, 'flavors', detail=False)

    @validation.documented(query=schema.index_query, response=schema.list_response)
    def detail(self, req):
        return _page(req, 'flavors/detail', detail=True)

    @validation.documented(response=schema.show_response)
    def show(self, req, flavor_id):
        row = flavors.get(req.context, flavor_id)
        return {'flavor': views.ViewBuilder(req).detail(row)}

    @validation.documented(body=schema.create_v255, response=schema.show_response)
    def create(self, req):
        # as Nova: the body, then policy; 200, not 201
        body = validation.validate(req.json_body(), schema.create_for(req))['flavor']
        policy.authorize(req.context, policies.CREATE, {})
        row = flavors.create(
            body['name'], body.get('id'), body['ram'], body['vcpus'], body['disk'],
            ephemeral_gb=body.get('OS-FLV-EXT-DATA:ephemeral', 0),
            swap=body.get('swap', 0), rxtx_factor=body.get('rxtx_factor', 1.0),
            is_public=body.get('os-flavor-access:is_public', True),
            description=body.get('description'))
        # a new flavor has no extra specs yet (Nova answers {} too)
        return {'flavor': views.ViewBuilder(req).detail(row, specs={})}

    @validation.documented(body=schema.update, response=schema.show_response)
    def update(self, req, flavor_id):
        """PUT /flavors/{flavor_id} from 2.55: the description. As Nova:
        404 below 2.55, then the body, the policy, the flavor."""
        if not req.at_least(avr.FLAVOR_DESCRIPTION):
            raise faults.NotFound()
        body = validation.validate(req.json_body(), schema.update)['flavor']
        policy.authorize(req.context, policies.UPDATE, {})
        row = flavors.update_description(flavor_id, body['description'])
        return {'flavor': views.ViewBuilder(req).detail(row)}

    @wsgi.status(202)
    @validation.documented()
    def delete(self, req, flavor_id):
        policy.authorize(req.context, policies.DELETE, {})
        flavors.delete(flavor_id)
