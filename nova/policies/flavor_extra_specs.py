from nova.policies import base

PREFIX = 'os_compute_api:os-flavor-extra-specs:%s'
INDEX = PREFIX % 'index'
SHOW = PREFIX % 'show'
CREATE = PREFIX % 'create'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'
COLLECTION = '/flavors/{flavor_id}/os-extra_specs'
ITEM = COLLECTION + '/{flavor_extra_spec_key}'

rules = [
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN,
              "List a flavor's extra specs (and, from microversion 2.61, see them in "
              'flavor views)', ('GET', COLLECTION)),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN, "Show one of a flavor's extra specs",
              ('GET', ITEM)),
    base.rule(CREATE, base.ADMIN_API, 'Set extra specs of a flavor', ('POST', COLLECTION)),
    base.rule(UPDATE, base.ADMIN_API, "Set one of a flavor's extra specs", ('PUT', ITEM)),
    base.rule(DELETE, base.ADMIN_API, "Delete one of a flavor's extra specs",
              ('DELETE', ITEM)),
]


def list_rules():
    return rules
