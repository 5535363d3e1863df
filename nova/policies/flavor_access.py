from nova.policies import base

LIST = 'os_compute_api:os-flavor-access'
ADD = 'os_compute_api:os-flavor-access:add_tenant_access'
REMOVE = 'os_compute_api:os-flavor-access:remove_tenant_access'

rules = [
    base.rule(LIST, base.ADMIN, 'List the projects granted a private flavor',
              ('GET', '/flavors/{flavor_id}/os-flavor-access')),
    base.rule(ADD, base.ADMIN, 'Grant a project a private flavor',
              ('POST', '/flavors/{flavor_id}/action (addTenantAccess)')),
    base.rule(REMOVE, base.ADMIN, "Take a project's grant of a private flavor away",
              ('POST', '/flavors/{flavor_id}/action (removeTenantAccess)')),
]


def list_rules():
    return rules
