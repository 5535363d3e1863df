from nova.policies import base

CREATE = 'os_compute_api:os-flavor-manage:create'
DELETE = 'os_compute_api:os-flavor-manage:delete'

rules = [
    base.rule(CREATE, base.ADMIN, 'Create a flavor', ('POST', '/flavors')),
    base.rule(DELETE, base.ADMIN, 'Delete a flavor', ('DELETE', '/flavors/{flavor_id}')),
]


def list_rules():
    return rules
