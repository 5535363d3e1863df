from nova.policies import base

INDEX = 'os_compute_api:os-keypairs:index'
CREATE = 'os_compute_api:os-keypairs:create'
SHOW = 'os_compute_api:os-keypairs:show'
DELETE = 'os_compute_api:os-keypairs:delete'

# the keypair's own user, or an administrator (who names the user)
_OWNER_OR_ADMIN = '(%s) or user_id:%%(user_id)s' % base.ADMIN

rules = [
    base.rule(INDEX, _OWNER_OR_ADMIN, "List a user's keypairs", ('GET', '/os-keypairs')),
    base.rule(CREATE, _OWNER_OR_ADMIN, 'Create or import a keypair', ('POST', '/os-keypairs')),
    base.rule(SHOW, _OWNER_OR_ADMIN, 'Show a keypair', ('GET', '/os-keypairs/{keypair_name}')),
    base.rule(DELETE, _OWNER_OR_ADMIN, 'Delete a keypair',
              ('DELETE', '/os-keypairs/{keypair_name}')),
]


def list_rules():
    return rules
