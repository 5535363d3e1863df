"""POST /servers/{server_id}/action: one handler per action, chosen by
the body's single key, with Nova's schemas, policies, checks and faults.

Order, as Nova's: the action name (400 for an unknown one), its body
schema (400), the server (404), the policy (403), then the action's own
checks (409 locked or in the wrong state, 400/404 for evacuate's host).
"""
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


class ServerActionsController:

    def __init__(self):
        # action name -> (handler, the body schema for a request)
        self._actions = {
            'os-stop': (self._stop, lambda req: schema.stop),
            'os-start': (self._start, lambda req: schema.start),
            'reboot': (self._reboot, lambda req: schema.reboot),
            'lock': (self._lock, lambda req: schema.lock),
            'unlock': (self._unlock, lambda req: schema.unlock),
            'os-resetState': (self._reset_state, lambda req: schema.reset_state),
            'evacuate': (self._evacuate, self._evacuate_schema),
        }

    @validation.documented(body={'oneOf': [schema.stop, schema.start, schema.reboot,
                                           schema.lock, schema.unlock, schema.reset_state,
                                           schema.evacuate_v229]},
                           response={'oneOf': [schema.no_body, schema.evacuate_response]})
    def action(self, req, server_id):
        name, body = common.action(req)
        if name not in self._actions:
            raise faults.BadRequest('There is no such action: %s' % name)
        handler, body_schema = self._actions[name]
        validation.validate(body, body_schema(req))
        row = compute.get(req.context, server_id)
        result = handler(req, row, body[name])
        req.response_code = 200 if name == 'evacuate' else 202
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

    def _lock(self, req, row, _):
        policy.authorize(req.context, ap.LOCK,
                         {'user_id': row['user_id'], 'project_id': row['project_id']})
        actions.lock(req.context, row)

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

    @staticmethod
    def _evacuate_schema(req):
        if req.at_least(avr.EVACUATE_FORCE):
            return schema.evacuate_v229
        if req.at_least(avr.EVACUATE_NO_SHARED_STORAGE):
            return schema.evacuate_v214
        return schema.evacuate

    def _evacuate(self, req, row, body):
        policy.authorize(req.context, ap.EVACUATE,
                         {'user_id': row['user_id'], 'project_id': row['project_id']})
        host = body.get('host')
        force = None
        if req.at_least(avr.EVACUATE_FORCE):
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
