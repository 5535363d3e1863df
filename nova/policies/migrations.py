from nova.policies import base

INDEX = 'os_compute_api:os-migrations:index'

rules = [
    base.rule(INDEX, base.ADMIN, 'List migrations', ('GET', '/os-migrations')),
]


def list_rules():
    return rules
