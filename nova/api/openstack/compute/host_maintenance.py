"""/os-host-maintenance: planned maintenance windows of compute hosts.

Admins schedule, change, cancel and see every window with its host and
reason. Everyone else sees only the windows of hosts running servers of
their project, each with those servers and the hostId they know the host
by: never its name, never the reason (an operator's text may name hosts).
"""
from nova.api.openstack import common
from nova.api.openstack import validation
from nova.api.openstack import wsgi
from nova.api.openstack.compute.schemas import host_maintenance as schema
from nova.compute import maintenance
from nova.compute.host_id import host_id
from nova.policies import host_maintenance as policies
from nova import policy


def admin_view(row):
    return {'id': row['uuid'], 'host': row['host'], 'start': common.isotime_z(row['start_at']),
            'end': common.isotime_z(row['end_at']), 'reason': row['reason'],
            'impact': row['impact'], 'state': row['state'],
            'created_at': common.isotime_z(row['created_at']),
            'updated_at': common.isotime_z(row['updated_at'])}


def member_view(row, project_id, server_ids):
    return {'id': row['uuid'], 'hostId': host_id(project_id, row['host']),
            'servers': list(server_ids), 'start': common.isotime_z(row['start_at']),
            'end': common.isotime_z(row['end_at']), 'impact': row['impact'], 'state': row['state']}


class HostMaintenanceController:

    @staticmethod
    def _sees_all(context):
        return policy.authorize(context, policies.ALL, {'project_id': context.project_id},
                                fatal=False)

    @validation.documented(query=schema.list_query, response=schema.list_response)
    def index(self, req):
        context = req.context
        policy.authorize(context, policies.LIST, {'project_id': context.project_id})
        query = validation.validate(dict(req.GET.items()), schema.index_query)
        if self._sees_all(context):
            host = query.get('host')
            return {'maintenances': [admin_view(r) for r in maintenance.list_all(host)]}
        return {'maintenances': [
            member_view(row, context.project_id, servers)
            for row, servers in maintenance.list_for_project(context.project_id)]}

    @validation.documented(response=schema.show_response,
                           path={'maintenance_id': schema.window_id})
    def show(self, req, maintenance_id):
        context = req.context
        policy.authorize(context, policies.SHOW, {'project_id': context.project_id})
        if self._sees_all(context):
            return {'maintenance': admin_view(maintenance.get(maintenance_id))}
        [(row, servers)] = maintenance.list_for_project(context.project_id, maintenance_id)
        return {'maintenance': member_view(row, context.project_id, servers)}

    @wsgi.status(201)
    @validation.documented(body=schema.create, response=schema.show_response)
    def create(self, req):
        policy.authorize(req.context, policies.CREATE, {})
        body = validation.validate(req.json_body(), schema.create)['maintenance']
        row = maintenance.create(body['host'], body['start'], body['end'],
                                 body.get('reason'), body.get('impact', 'unknown'))
        return {'maintenance': admin_view(row)}

    @validation.documented(body=schema.update, response=schema.show_response,
                           path={'maintenance_id': schema.window_id})
    def update(self, req, maintenance_id):
        policy.authorize(req.context, policies.UPDATE, {})
        body = validation.validate(req.json_body(), schema.update)['maintenance']
        return {'maintenance': admin_view(maintenance.update(maintenance_id, body))}

    @wsgi.status(204)
    @validation.documented(path={'maintenance_id': schema.window_id})
    def delete(self, req, maintenance_id):
        policy.authorize(req.context, policies.DELETE, {})
        maintenance.cancel(maintenance_id)
