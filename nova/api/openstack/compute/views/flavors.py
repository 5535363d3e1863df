"""Flavor JSON per microversion: list entries and the full flavor."""
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common


def extra_specs(row):
    """The flavor's extra specs as its views show them (2.61): the one
    place that reads them. No extra specs are stored yet, so {}."""
    return {}


class ViewBuilder:
    """Configured once per request; renders any number of flavor rows."""

    def __init__(self, req):
        self.links = common.Links(req, 'flavors')
        self.description = req.at_least(avr.FLAVOR_DESCRIPTION)
        self.extra_specs = req.at_least(avr.FLAVOR_EXTRA_SPECS)

    def basic(self, row):
        flavor = {'id': row['flavorid'], 'name': row['name'],
                  'links': self.links.pair(row['flavorid'])}
        if self.description:
            flavor['description'] = row['description']
        return flavor

    def detail(self, row):
        # Nova's key order
        flavor = {
            'id': row['flavorid'],
            'name': row['name'],
            'ram': row['memory_mb'],
            'disk': row['root_gb'],
            'swap': row['swap'] or '',
            'OS-FLV-EXT-DATA:ephemeral': row['ephemeral_gb'],
            'OS-FLV-DISABLED:disabled': bool(row['disabled']),
            'vcpus': row['vcpus'],
            'os-flavor-access:is_public': bool(row['is_public']),
            'rxtx_factor': row['rxtx_factor'],
            'links': self.links.pair(row['flavorid']),
        }
        if self.description:
            flavor['description'] = row['description']
        if self.extra_specs:
            flavor['extra_specs'] = extra_specs(row)
        return flavor
