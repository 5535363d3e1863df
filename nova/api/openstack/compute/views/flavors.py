"""Flavor JSON per microversion: list entries and the full flavor."""
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.compute import flavor_extra_specs
from nova.policies import flavor_extra_specs as extra_specs_policies
from nova import policy


def extra_specs(row):
    """The flavor's extra specs as its views show them (2.61)."""
    return flavor_extra_specs.for_flavor(row)


class ViewBuilder:
    """Configured once per request; renders any number of flavor rows.
    From 2.61 the full flavor carries ``extra_specs`` when policy lets the
    caller list them (Nova asks os-flavor-extra-specs:index, not fatally);
    ``prefetch`` reads them for a whole page in one query."""

    def __init__(self, req):
        self.links = common.Links(req, 'flavors')
        self.description = req.at_least(avr.FLAVOR_DESCRIPTION)
        self.extra_specs = req.at_least(avr.FLAVOR_EXTRA_SPECS) and policy.authorize(
            req.context, extra_specs_policies.INDEX,
            {'project_id': req.context.project_id}, fatal=False)
        self._specs = {}

    def prefetch(self, rows):
        """Read the extra specs of ``rows`` (a page) for ``detail``."""
        if self.extra_specs:
            self._specs = flavor_extra_specs.for_flavors(rows)

    def basic(self, row):
        flavor = {'id': row['flavorid'], 'name': row['name'],
                  'links': self.links.pair(row['flavorid'])}
        if self.description:
            flavor['description'] = row['description']
        return flavor

    def detail(self, row, specs=None):
        """The full flavor; ``specs``: its extra specs when already known
        (a flavor just created has none)."""
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
            if specs is None:
                specs = self._specs[row['id']] if row['id'] in self._specs else extra_specs(row)
            flavor['extra_specs'] = specs
        return flavor
