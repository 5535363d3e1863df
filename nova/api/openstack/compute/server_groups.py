"""/os-server-groups: a project's server groups, created, listed (an
admin's ``all_projects`` lists every project's), shown and deleted, as
Nova serves them up to 2.73: ``project_id`` and ``user_id`` from 2.13, the
soft policies from 2.15, one ``policy`` with ``rules`` from 2.64."""
import collections

import nova.conf
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack import wsgi
from nova.api.openstack.compute.schemas import server_groups as schema
from nova.compute import group_policy
from nova.compute import host_id
from nova.compute import server_groups
from nova.policies import host_health as host_health_policies
from nova.policies import server_groups as policies
from nova import policy

CONF = nova.conf.CONF

PROJECT_IDS = avr.SERVER_GROUP_PROJECT
SOFT_POLICIES = avr.SOFT_AFFINITY
POLICY_AND_RULES = avr.GROUP_POLICY_RULES


def _view(req, row, members):
    group = {'id': row['uuid'], 'name': row['name']}
    if req.at_least(POLICY_AND_RULES):
        group['policy'] = row['policy']
        group['rules'] = server_groups.rules_of(row)
    else:
        group['policies'] = [row['policy']]
        group['metadata'] = {}      # as Nova's: always empty
    group['members'] = list(members)
    if req.at_least(PROJECT_IDS):
        group['project_id'] = row['project_id']
        group['user_id'] = row['user_id']
    return group


class ServerGroupsController:

    @validation.documented(query=schema.index_query, response=schema.list_response)
    def index(self, req):
        context = req.context
        policy.authorize(context, policies.INDEX, {'project_id': context.project_id})
        validation.validate_query(req, schema.index_query)
        project_id = context.project_id
        if 'all_projects' in req.GET and context.is_admin:
            # as Nova: a non-admin asking for all projects gets their own
            policy.authorize(context, policies.INDEX_ALL_PROJECTS,
                             {'project_id': context.project_id})
            project_id = None
        # as Nova's: limit 0 or none is [api] max_limit, offset skips
        max_limit = CONF.api.max_limit
        limit = min(int(req.GET.get('limit') or 0) or max_limit, max_limit)
        found = server_groups.page(project_id, limit, int(req.GET.get('offset') or 0))
        return {'server_groups': [_view(req, row, members) for row, members in found]}

    @validation.documented(body=schema.create, response=schema.show_response)
    def create(self, req):
        context = req.context
        policy.authorize(context, policies.CREATE,
                         {'project_id': context.project_id, 'user_id': context.user_id})
        if req.at_least(POLICY_AND_RULES):
            body = validation.validate(req.json_body(), schema.create_v264)['server_group']
            group_policy_name = body['policy']
            rules = {key: int(value) for key, value in body.get('rules', {}).items()}
            if rules and group_policy_name != group_policy.ANTI_AFFINITY:
                raise faults.BadRequest('Only anti-affinity policy supports rules.')
        else:
            body_schema = (schema.create_v215 if req.at_least(SOFT_POLICIES)
                           else schema.create)
            body = validation.validate(req.json_body(), body_schema)['server_group']
            group_policy_name, rules = body['policies'][0], None
        row = server_groups.create(context, body['name'], group_policy_name, rules)
        return {'server_group': _view(req, row, [])}

    @validation.documented(response=schema.show_response)
    def show(self, req, server_group_id):
        row, members = server_groups.get(server_group_id)
        policy.authorize(req.context, policies.SHOW, {'project_id': row['project_id']})
        return {'server_group': _view(req, row, members)}

    @wsgi.status(204)
    @validation.documented()
    def delete(self, req, server_group_id):
        row, _ = server_groups.get(server_group_id)
        policy.authorize(req.context, policies.DELETE, {'project_id': row['project_id']})
        server_groups.delete(server_group_id)

    @validation.documented(response=schema.host_status_response)
    def host_status(self, req, server_group_id):
        """Ours (DESIGN section 7, a new resource): how the group stands, in
        one call. Host names where the host-health details rule allows
        (administrators by default); hostId for all."""
        row, members = server_groups.host_status(server_group_id)
        context = req.context
        target = {'project_id': row['project_id']}
        policy.authorize(context, policies.HOST_STATUS, target)
        details = policy.authorize(context, host_health_policies.SHOW_DETAILS, target,
                                   fatal=False)
        hosts = collections.Counter(host for _, host, _ in members if host)
        servers = []
        for uuid, host, status in members:
            server = {'id': uuid, 'host_status': status,
                      'hostId': host_id.host_id(row['project_id'], host)}
            if details:
                server['host'] = host
            servers.append(server)
        statuses = [status for _, _, status in members]
        return {'server_group_host_status': {
            'id': row['uuid'], 'policy': row['policy'], 'members': len(members),
            'up': statuses.count('UP'),
            'unknown_or_down': sum(statuses.count(s) for s in server_groups.AT_RISK),
            'shared_host': any(count > 1 for count in hosts.values()),
            'servers': servers}}
