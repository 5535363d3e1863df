"""/servers/{server_id}/os-instance-actions[/{request_id}]: what was done
to a server, by whom and when, and how each step ended, as Nova serves it
up to 2.73: deleted servers' actions from 2.21, events for the server's
readers (without traceback) from 2.51, paging and ``updated_at`` from
2.58, events' ``hostId`` (and ``host`` for admins) from 2.62,
``changes-before`` from 2.66. Another project's server is 404."""
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import instance_actions as schema
from nova.compute import host_id
from nova.compute import instance_actions
from nova.policies import instance_actions as policies
from nova import policy

DELETED_SERVERS = avr.DELETED_SERVER_ACTIONS
EVENTS_FOR_READERS = avr.ACTION_EVENTS_FOR_READERS
PAGING = avr.ACTIONS_PAGING
EVENT_HOSTS = avr.ACTION_EVENT_HOSTS
CHANGES_BEFORE = avr.CHANGES_BEFORE

_KEYS = ('action', 'instance_uuid', 'request_id', 'user_id', 'project_id')


def _action(req, row):
    action = {key: row[key] for key in _KEYS}
    action['start_time'] = common.isotime_micro(row['start_time'])
    action['message'] = row['message']
    if req.at_least(PAGING):
        action['updated_at'] = common.isotime_micro(row['updated_at'])
    return action


def _event(req, row, project_id, with_traceback):
    event = {'event': row['event'], 'start_time': common.isotime_micro(row['start_time']),
             'finish_time': common.isotime_micro(row['finish_time']),
             'result': row['result']}
    if with_traceback:
        event['traceback'] = row['traceback']
        if req.at_least(EVENT_HOSTS):
            event['host'] = row['host']
    if req.at_least(EVENT_HOSTS):
        event['hostId'] = host_id.host_id(project_id, row['host'])
    return event


class InstanceActionsController:

    @staticmethod
    def _server(req, server_id, rule):
        project_id = instance_actions.server_project(
            req.context, server_id, req.at_least(DELETED_SERVERS))
        policy.authorize(req.context, rule, {'project_id': project_id})
        return project_id

    # the document describes requests at 2.1 (no version header), where
    # Nova ignores 2.58's query, so it is left out of it
    @validation.documented(response=schema.list_response)
    def index(self, req, server_id):
        self._server(req, server_id, policies.LIST)
        if not req.at_least(PAGING):
            return {'instanceActions': [_action(req, row) for row in
                                        instance_actions.page(server_id)]}
        query = (schema.list_query_v266 if req.at_least(CHANGES_BEFORE)
                 else schema.list_query_v258)
        validation.refuse_unknown_query(req, query)
        validation.validate_query(req, query)
        params = req.GET
        since = before = None
        if 'changes-since' in params:
            since = common.query_time('changes-since', params['changes-since'])
        if 'changes-before' in params:
            before = common.query_time('changes-before', params['changes-before'])
            if since is not None and since > before:
                raise faults.BadRequest('The value of changes-since must be less than or '
                                        'equal to changes-before.')
        limit = common.limit_param(req)
        rows = instance_actions.page(server_id, limit, params.get('marker'), since, before)
        body = {'instanceActions': [_action(req, row) for row in rows]}
        links = common.next_link(req, 'servers/%s/os-instance-actions' % server_id,
                                 body['instanceActions'], limit, id_key='request_id')
        if links:
            body['links'] = links
        return body

    @validation.documented(response=schema.show_response)
    def show(self, req, server_id, request_id):
        project_id = self._server(req, server_id, policies.SHOW)
        row, events = instance_actions.get(server_id, request_id)
        action = _action(req, row)
        target = {'project_id': project_id}
        with_traceback = policy.authorize(req.context, policies.EVENTS, target, fatal=False)
        if with_traceback or req.at_least(EVENTS_FOR_READERS):
            action['events'] = [_event(req, event, row['project_id'] or project_id,
                                       with_traceback) for event in events]
        return {'instanceAction': action}
