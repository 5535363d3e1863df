"""/os-services: list, enable, disable, disable-log-reason, force-down (2.11)."""
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import services as schema
from nova.db import api as db
from nova import exception
from nova.policies import services as policies
from nova import policy
from nova import servicegroup

import nova.conf

CONF = nova.conf.CONF


def _isotime(value):
    return value.strftime('%Y-%m-%dT%H:%M:%S.%f') if value is not None else None


class ServicesController:

    @validation.documented(query=schema.list_query, response=schema.list_response)
    def index(self, req):
        policy.authorize(req.context, policies.LIST, {})
        with_forced_down = req.at_least(avr.SERVICE_FORCE_DOWN)
        rows = db.service_list(host=req.GET.get('host'), binary=req.GET.get('binary'))
        up, seen = self._liveness(rows)
        services = []
        for row in rows:
            service = {
                'id': row['id'],
                'binary': row['binary'],
                'host': row['host'],
                'zone': (CONF.default_availability_zone
                         if row['binary'] == db.COMPUTE_BINARY else 'internal'),
                'status': 'disabled' if row['disabled'] else 'enabled',
                'state': 'up' if row['id'] in up else 'down',
                'updated_at': _isotime(seen.get(row['id'], row['updated_at'])),
                'disabled_reason': row['disabled_reason'],
            }
            if with_forced_down:
                service['forced_down'] = bool(row['forced_down'])
            services.append(service)
        return {'services': services}

    @staticmethod
    def _liveness(rows):
        """(ids of the rows whose service is alive, {id: last seen}); none
        alive and the rows' own updated_at while liveness cannot be read
        (every service then shows "down": documented)."""
        up, seen = set(), {}
        group = servicegroup.API()
        for binary in {row['binary'] for row in rows}:
            of_binary = {row['host']: row for row in rows if row['binary'] == binary}
            try:
                hosts = group.hosts_up(of_binary)
                seen.update((of_binary[host]['id'], at)
                            for host, at in group.updated_at(of_binary).items())
            except exception.ServiceGroupUnavailable:
                continue
            up.update(of_binary[host]['id'] for host in hosts)
        return up, seen

    @validation.documented(body=schema.update_body, response=schema.update_response,
                           path={'action': {'type': 'string', 'enum': schema.actions}})
    def update(self, req, action):
        actions = {'enable': self._enable, 'disable': self._disable,
                   'disable-log-reason': self._disable_log_reason}
        if req.at_least(avr.SERVICE_FORCE_DOWN):
            actions['force-down'] = self._force_down
        handler = actions.get(action)
        if handler is None:
            raise faults.NotFound('Unknown action')
        policy.authorize(req.context, policies.UPDATE, {})
        return handler(req.json_body())

    @staticmethod
    def _change(host, binary, **values):
        if db.service_update(host, binary, **values) == 0:
            raise exception.ServiceNotFound(binary=binary, host=host)

    def _enable(self, body):
        validation.validate(body, schema.service_update)
        self._change(body['host'], body['binary'], disabled=False, disabled_reason=None)
        return {'service': {'host': body['host'], 'binary': body['binary'],
                            'status': 'enabled'}}

    def _disable(self, body):
        validation.validate(body, schema.service_update)
        self._change(body['host'], body['binary'], disabled=True)
        return {'service': {'host': body['host'], 'binary': body['binary'],
                            'status': 'disabled'}}

    def _disable_log_reason(self, body):
        validation.validate(body, schema.service_update)
        reason = body.get('disabled_reason')
        if not reason:
            raise faults.BadRequest('Missing disabled reason field')
        self._change(body['host'], body['binary'], disabled=True, disabled_reason=reason)
        return {'service': {'host': body['host'], 'binary': body['binary'],
                            'status': 'disabled', 'disabled_reason': reason}}

    def _force_down(self, body):
        validation.validate(body, schema.service_force_down)
        self._change(body['host'], body['binary'], forced_down=body['forced_down'])
        return {'service': {'host': body['host'], 'binary': body['binary'],
                            'forced_down': body['forced_down']}}
