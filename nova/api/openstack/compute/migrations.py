"""GET /os-migrations: the evacuations recorded in the migrations table,
as Nova lists migrations (admin only)."""
from oslo_utils import strutils

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import migrations as schema
from nova.api.openstack.compute.views import migrations as views
from nova.compute import migrations as compute
from nova.policies import migrations as mp
from nova import policy

_EQUAL_FILTERS = ('instance_uuid', 'migration_type', 'status')


def _filters(req):
    params = req.GET
    filters = {key: params[key] for key in _EQUAL_FILTERS if key in params}
    # as Nova: host (source or destination) wins over source_compute
    if 'host' in params:
        filters['host'] = params['host']
    elif 'source_compute' in params:
        filters['source_compute'] = params['source_compute']
    if req.at_least(avr.MIGRATIONS_PAGING) and 'changes-since' in params:
        filters['changes_since'] = common.query_time('changes-since', params['changes-since'])
    if req.at_least(avr.CHANGES_BEFORE) and 'changes-before' in params:
        filters['changes_before'] = common.query_time('changes-before',
                                                      params['changes-before'])
        if filters.get('changes_since', filters['changes_before']) > filters['changes_before']:
            raise faults.BadRequest('The value of changes-since must be less than or '
                                    'equal to changes-before.')
    return filters


class MigrationsController:

    # documented as served without a version header (2.1): the filters only
    @validation.documented(query=schema.list_query, response=schema.list_response)
    def index(self, req):
        policy.authorize(req.context, mp.INDEX, {})
        properties = validation.for_version(schema.LIST_QUERIES, req)
        validation.validate_query(req, properties)
        paged = req.at_least(avr.MIGRATIONS_PAGING)
        if paged:
            validation.refuse_unknown_query(req, properties)
        if strutils.bool_from_string(req.GET.get('hidden')):
            rows = []     # no migration is hidden here
        elif paged:
            limit = common.limit_param(req)
            rows = compute.get_all(_filters(req), limit, req.GET.get('marker'))
        else:
            rows = compute.get_all(_filters(req))
        builder = views.ViewBuilder(req)
        body = {'migrations': [builder.show(row) for row in rows]}
        if paged:
            links = common.next_link(req, 'os-migrations', body['migrations'], limit,
                                     id_key='uuid')
            if links:
                body['migrations_links'] = links
        return body
