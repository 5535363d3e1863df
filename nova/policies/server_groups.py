from nova.policies import base

PREFIX = 'os_compute_api:os-server-groups:%s'
CREATE = PREFIX % 'create'
DELETE = PREFIX % 'delete'
INDEX = PREFIX % 'index'
INDEX_ALL_PROJECTS = PREFIX % 'index:all_projects'
SHOW = PREFIX % 'show'
HOST_STATUS = PREFIX % 'host-status'

# Nova's defaults: members create; readers of the group's project list and
# show; members of it (or admins) delete; admins list every project's
rules = [
    base.rule(CREATE, 'rule:project_member_api', 'Create a new server group',
              ('POST', '/os-server-groups')),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN, 'Delete a server group',
              ('DELETE', '/os-server-groups/{server_group_id}')),
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN, "List the project's server groups",
              ('GET', '/os-server-groups')),
    base.rule(INDEX_ALL_PROJECTS, base.ADMIN_API, 'List the server groups of all projects',
              ('GET', '/os-server-groups')),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN, 'Show a server group',
              ('GET', '/os-server-groups/{server_group_id}')),
    # ours, beyond Nova: as the host-health extension, the owners see it
    base.rule(HOST_STATUS, base.PROJECT_READER_OR_ADMIN,
              'How a server group stands: its members by host_status, and whether '
              'two share a host (host names: administrators)',
              ('GET', '/os-server-groups/{server_group_id}/host-status')),
]


def list_rules():
    return rules
