"""/flavors: list, detail, show."""
from nova.api.openstack import common
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import flavors as schema
from nova.db import api as db
from nova import exception


def _basic(links, row):
    return {'id': row['flavorid'], 'links': links.pair(row['flavorid']), 'name': row['name']}


def _detail(links, row):
    return {
        'id': row['flavorid'],
        'name': row['name'],
        'ram': row['memory_mb'],
        'disk': row['root_gb'],
        'vcpus': row['vcpus'],
        'swap': row['swap'] or '',
        'rxtx_factor': row['rxtx_factor'],
        'OS-FLV-EXT-DATA:ephemeral': row['ephemeral_gb'],
        'OS-FLV-DISABLED:disabled': bool(row['disabled']),
        'os-flavor-access:is_public': bool(row['is_public']),
        'links': links.pair(row['flavorid']),
    }


class FlavorsController:

    @validation.documented(response=schema.list_response)
    def index(self, req):
        links = common.Links(req, 'flavors')
        return {'flavors': [_basic(links, row) for row in db.flavor_list()]}

    @validation.documented(response=schema.list_response)
    def detail(self, req):
        links = common.Links(req, 'flavors')
        return {'flavors': [_detail(links, row) for row in db.flavor_list()]}

    @validation.documented(response=schema.show_response)
    def show(self, req, flavor_id):
        row = db.flavor_get(flavor_id)
        if row is None:
            raise exception.FlavorNotFound(flavor_id=flavor_id)
        return {'flavor': _detail(common.Links(req, 'flavors'), row)}
