"""The request context: who is calling, in which project, with which roles."""
from oslo_context import context as oslo_context

from nova import policy


class RequestContext(oslo_context.RequestContext):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Decided once per request from the context_is_admin rule.
        self.is_admin = policy.check_is_admin(self)


def from_noauth2_token(token, request_id=None):
    """``user:project`` → a context; user ``admin`` is an admin."""
    user_id, _, project_id = token.partition(':')
    project_id = project_id or user_id
    roles = ['admin', 'member', 'reader'] if user_id == 'admin' else ['member', 'reader']
    return RequestContext(user_id=user_id, project_id=project_id, roles=roles,
                          request_id=request_id)


def from_keystone_environ(environ, request_id=None):
    """The identity keystonemiddleware's auth_token put in the headers."""
    ctx = oslo_context.RequestContext.from_environ(environ)
    return RequestContext(user_id=ctx.user_id, project_id=ctx.project_id,
                          roles=ctx.roles, auth_token=ctx.auth_token,
                          user_name=ctx.user_name, project_name=ctx.project_name,
                          request_id=request_id)
