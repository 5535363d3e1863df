"""Server tags (microversion 2.26): Nova's rules and defaults."""
from nova.policies import base

PREFIX = 'os_compute_api:os-server-tags:%s'
INDEX = PREFIX % 'index'
SHOW = PREFIX % 'show'
UPDATE = PREFIX % 'update'
UPDATE_ALL = PREFIX % 'update_all'
DELETE = PREFIX % 'delete'
DELETE_ALL = PREFIX % 'delete_all'

_TAGS = '/servers/{server_id}/tags'
_TAG = _TAGS + '/{tag}'

rules = [
    base.rule(DELETE_ALL, base.PROJECT_MEMBER_OR_ADMIN, 'Delete all the server tags',
              ('DELETE', _TAGS)),
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN, 'List all tags for given server',
              ('GET', _TAGS)),
    base.rule(UPDATE_ALL, base.PROJECT_MEMBER_OR_ADMIN,
              'Replace all tags on specified server with the new set of tags.',
              ('PUT', _TAGS)),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN,
              'Delete a single tag from the specified server', ('DELETE', _TAG)),
    base.rule(UPDATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Add a single tag to the server if server has no specified tag',
              ('PUT', _TAG)),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN, 'Check tag existence on the server.',
              ('GET', _TAG)),
]


def list_rules():
    return rules
