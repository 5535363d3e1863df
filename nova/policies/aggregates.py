from nova.policies import base

PREFIX = 'os_compute_api:os-aggregates:%s'
INDEX = PREFIX % 'index'
CREATE = PREFIX % 'create'
SHOW = PREFIX % 'show'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'
ADD_HOST = PREFIX % 'add_host'
REMOVE_HOST = PREFIX % 'remove_host'
SET_METADATA = PREFIX % 'set_metadata'
COLLECTION = '/os-aggregates'
ITEM = '/os-aggregates/{aggregate_id}'
ACTION = ITEM + '/action (%s)'

rules = [
    base.rule(INDEX, base.ADMIN_API, 'List host aggregates', ('GET', COLLECTION)),
    base.rule(CREATE, base.ADMIN_API, 'Create a host aggregate', ('POST', COLLECTION)),
    base.rule(SHOW, base.ADMIN_API, 'Show a host aggregate', ('GET', ITEM)),
    base.rule(UPDATE, base.ADMIN_API, 'Rename a host aggregate or change its zone',
              ('PUT', ITEM)),
    base.rule(DELETE, base.ADMIN_API, 'Delete a host aggregate', ('DELETE', ITEM)),
    base.rule(ADD_HOST, base.ADMIN_API, 'Add a host to an aggregate',
              ('POST', ACTION % 'add_host')),
    base.rule(REMOVE_HOST, base.ADMIN_API, 'Remove a host from an aggregate',
              ('POST', ACTION % 'remove_host')),
    base.rule(SET_METADATA, base.ADMIN_API, 'Set or remove metadata of an aggregate',
              ('POST', ACTION % 'set_metadata')),
]


def list_rules():
    return rules
