from oslo_policy import policy

ADMIN = 'rule:context_is_admin'
ADMIN_API = 'rule:admin_api'
PROJECT_MEMBER_OR_ADMIN = 'rule:project_member_or_admin'
PROJECT_READER_OR_ADMIN = 'rule:project_reader_or_admin'



def rule(name, check_str, description, *operations):
    """A documented, project-scoped rule; ``operations``: (method, path) pairs."""
    return policy.DocumentedRuleDefault(
        name=name, check_str=check_str, description=description,
        operations=[{'method': method, 'path': path} for method, path in operations],
        scope_types=['project'])


rules = [
    policy.RuleDefault('context_is_admin', 'role:admin',
                       'Decides who is an administrator.'),
    policy.RuleDefault('admin_api', 'role:admin',
                       'Default rule for administrative APIs.'),
    policy.RuleDefault('project_member_api', 'role:member and project_id:%(project_id)s',
                       'Default rule for project-level non-admin APIs.'),
    policy.RuleDefault('project_reader_api', 'role:reader and project_id:%(project_id)s',
                       'Default rule for project-level read-only APIs.'),
    policy.RuleDefault('project_member_or_admin', 'rule:project_member_api or rule:context_is_admin',
                       'A member of the owning project, or an administrator.'),
    policy.RuleDefault('project_reader_or_admin', 'rule:project_reader_api or rule:context_is_admin',
                       'A reader of the owning project, or an administrator.'),
]


def list_rules():
    return rules
