"""POST /servers/{server_id}/action: one handler per action, chosen by
the body's single key, with Nova's schemas, policies, checks and faults.

Order, as Nova's: the action name (400 for an unknown one), its body
schema (400), the server (404), the policy (403), then the action's own
checks (409 locked or in the wrong state, 400/404 for evacuate's host).
"""
import dataclasses

from oslo_utils import strutils

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import server_actions as schema
from nova.compute import actions
from nova.compute import api as compute
from nova.policies import server_actions as ap
from nova.policies import servers as sp
from nova import policy


@dataclasses.dataclass(frozen=True)
class Action:
    """One action: its handler (a ServerActionsController method name),
    its body schemas ((first version, schema), newest first), the status
    it answers and the first version that has it."""
    handler: str
    schemas: tuple
    status: int = 202
    first: str = avr.MIN_VERSION


def _always(body_schema):
    return ((avr.MIN_VERSION, body_schema),)


# The one list of the actions this service serves. Each records its
# instance action, if Nova's has one, with its change (nova/compute/actions.py).
ACTIONS = {
    'os-stop': Action('_stop', _always(schema.stop)),
    'os-start': Action('_start', _always(schema.start)),
    'reboot': Action('_reboot', _always(schema.reboot)),
    'lock': Action('_lock', ((avr.LOCKED_REASON, schema.lock_v273),
                             (avr.MIN_VERSION, schema.lock))),
    'unlock': Action('_unlock', _always(schema.unlock)),
    'os-resetState': Action('_reset_state', _always(schema.reset_state)),
    'evacuate': Action('_evacuate', ((avr.EVACUATE_NO_FORCE, schema.evacuate_v268),
                                     (avr.EVACUATE_FORCE, schema.evacuate_v229),
                                     (avr.EVACUATE_NO_SHARED_STORAGE, schema.evacuate_v214),
                                     (avr.MIN_VERSION, schema.evacuate)),
                       status=200),
}


class ServerActionsController:

    @validation.documented(
        body={'oneOf': [action.schemas[0][1] for action in ACTIONS.values()]},
        response={'oneOf': [schema.no_body, schema.evacuate_response]})
    def action(self, req, server_id):
        name, body = common.action(req)
        action = ACTIONS.get(name)
        if action is None or not req.at_least(action.first):
            raise faults.BadRequest('There is no such action: %s' % name)
        validation.validate(body, validation.for_version(action.schemas, req))
        row = compute.get(req.context, server_id)
        result = getattr(self, action.handler)(req, row, body[name])
        req.response_code = action.status
        return result

    # ------------------------------------------------------------ power

    def _stop(self, req, row, _):
        policy.authorize(req.context, sp.STOP,
                         {'user_id': row['user_id'], 'project_id': row['project_id']})
        actions.stop(req.context, row)

    def _start(self, req, row, _):
        policy.authorize(req.context, sp.START,
                         {'user_id': row['user_id'], 'project_id': row['project_id']})
        actions.start(req.context, row)

    def _reboot(self, req, row, body):
        policy.authorize(req.context, sp.REBOOT, {'project_id': row['project_id']})
        actions.reboot(req.context, row, body['type'].upper())

    # ------------------------------------------------------------ lock

    def _lock(self, req, row, body):
        policy.authorize(req.context, ap.LOCK,
                         {'user_id': row['user_id'], 'project_id': row['project_id']})
        # below 2.73 the body is anything, and a reason in it is dropped
        reason = (body or {}).get('locked_reason') if req.at_least(
            avr.LOCKED_REASON) else None
        actions.lock(req.context, row, reason)

    def _unlock(self, req, row, _):
        target = {'project_id': row['project_id']}
        policy.authorize(req.context, ap.UNLOCK, target)
        if actions.locked_by_someone_else(req.context, row):
            policy.authorize(req.context, ap.UNLOCK_OVERRIDE, target)
        actions.unlock(req.context, row)

    # ------------------------------------------------------------ admin

    def _reset_state(self, req, row, body):
        policy.authorize(req.context, ap.RESET_STATE, {'project_id': row['project_id']})
        actions.reset_state(req.context, row, body['state'])

    def _evacuate(self, req, row, body):
        policy.authorize(req.context, ap.EVACUATE,
                         {'user_id': row['user_id'], 'project_id': row['project_id']})
        host = body.get('host')
        force = None      # below 2.29 a given host is forced
        if req.at_least(avr.EVACUATE_NO_FORCE):
            force = False     # the scheduler checks a given host
        elif req.at_least(avr.EVACUATE_FORCE):
            force = strutils.bool_from_string(body.get('force', False), strict=True)
            if force and not host:
                raise faults.BadRequest("Can't force to a non-provided destination")
        password = None
        if not req.at_least(avr.EVACUATE_NO_SHARED_STORAGE):
            on_shared_storage = strutils.bool_from_string(body['onSharedStorage'])
            if on_shared_storage and 'adminPass' in body:
                raise faults.BadRequest("admin password can't be changed on existing disk")
            password = body.get('adminPass') or (
                None if on_shared_storage else compute.admin_password())
        if host is not None:
            given, host = host, actions.canonical_host(host)
            if host is None:
                raise faults.NotFound('Compute host %s not found.' % given)
        if row['host'] == host:
            raise faults.BadRequest("The target host can't be the same one.")
        actions.evacuate(req.context, row, host, force)
        if req.at_least(avr.EVACUATE_NO_SHARED_STORAGE):
            return None
        return {'adminPass': password}
