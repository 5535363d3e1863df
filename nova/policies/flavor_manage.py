from nova.policies import base

CREATE = 'os_compute_api:os-flavor-manage:create'
DELETE = 'os_compute_api:os-flavor-manage:delete'
UPDATE = 'os_compute_api:os-flavor-manage:update'

rules = [
    base.rule(CREATE, base.ADMIN, 'Create a flavor', ('POST', '/flavors')),
    base.rule(UPDATE, base.ADMIN, 'Update a flavor (its description, from microversion 2.55)',
              ('PUT', '/flavors/{flavor_id}')),
    base.rule(DELETE, base.ADMIN, 'Delete a flavor', ('DELETE', '/flavors/{flavor_id}')),
]


def list_rules():
    return rules
