"""GET /servers/{server_id}/host-health: what Nova's host_status field
cannot say (a dead disabled host is UNKNOWN here, a planned window shows
before it starts). The server's owner sees status, since, liveness,
admin_state and the window's times and impact; host names, reasons and
heartbeat ages only where os_compute_api:servers:host_health:details
allows (admins by default)."""
from nova.api.openstack import common
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import host_health as schema
from nova.compute import host_health
from nova.policies import host_health as policies
from nova import policy


def _window(row, details):
    if row is None:
        return None
    window = {'id': row['uuid'], 'start': common.isotime_z(row['start_at']),
              'end': common.isotime_z(row['end_at']), 'impact': row['impact'],
              'state': row['state']}
    if details:
        window['reason'] = row['reason']
    return window


class HostHealthController:

    @validation.documented(response=schema.show_response)
    def show(self, req, server_id):
        context = req.context
        row, found = host_health.health(context, server_id)
        target = {'project_id': row['project_id']}
        policy.authorize(context, policies.SHOW, target)
        details = policy.authorize(context, policies.SHOW_DETAILS, target, fatal=False)
        view = {'status': found['status'], 'since': common.isotime_micro_z(found['since']),
                'liveness': found['liveness'], 'admin_state': found['admin_state'],
                'maintenance': _window(found['maintenance'], details)}
        if details:
            age = found['heartbeat_age']
            view.update(host=found['host'], disabled_reason=found['disabled_reason'],
                        heartbeat_age=None if age is None else round(age, 3))
        return {'host_health': view}
