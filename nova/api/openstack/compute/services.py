"""/os-services: list, update and delete the services, as Nova does.

Below 2.53 services have integer ids and a PUT names an action (enable,
disable, disable-log-reason, force-down from 2.11) with the service's host
and binary in the body. From 2.53 ids are UUIDs and
``PUT /os-services/{service_id}`` takes status, disabled_reason and
forced_down. Every change goes through compute_services.update, so what the
scheduler, host_status and the host-status watcher see does not depend on
the form an operator used.
"""
from oslo_utils import strutils
from oslo_utils import uuidutils

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack import wsgi
from nova.api.openstack.compute.schemas import services as schema
from nova.compute import services as compute_services
from nova import exception
from nova.policies import services as policies
from nova import policy
from nova import servicegroup

import nova.conf

CONF = nova.conf.CONF


def _liveness(rows):
    """(ids of the rows whose service is alive, {id: last heartbeat as the
    liveness backend recorded it}); none alive and the rows' own updated_at
    while liveness cannot be read (every service then shows "down":
    documented)."""
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


def _view(row, up, seen, req):
    """One service as the request's microversion shows it (Nova's keys, in
    the order Nova's responses have them)."""
    service = {'binary': row['binary'], 'disabled_reason': row['disabled_reason']}
    if req.at_least(avr.SERVICE_FORCE_DOWN):
        service['forced_down'] = bool(row['forced_down'])
    service.update(
        host=row['host'],
        id=row['uuid'] if req.at_least(avr.SERVICE_UUIDS) else row['id'],
        state='up' if up else 'down',
        status='disabled' if row['disabled'] else 'enabled',
        updated_at=common.isotime_micro(seen.get(row['id'], row['updated_at'])),
        zone=CONF.default_availability_zone if row['binary'] == compute_services.COMPUTE_BINARY
        else 'internal')
    return service


def _only_compute(binary):
    if binary != compute_services.COMPUTE_BINARY:
        raise faults.BadRequest('Updating a %s service is not supported. Only nova-compute '
                                'services can be updated.' % binary)


def _change(host, binary, **values):
    _only_compute(binary)
    if compute_services.update(host, binary, **values) == 0:
        raise exception.HostNotMapped(name=host)


def _invalid_uuid(service_id):
    return faults.BadRequest('Invalid uuid %s' % service_id)


class ServicesController:

    @validation.documented(query=schema.list_query, response=schema.list_response)
    def index(self, req):
        policy.authorize(req.context, policies.LIST, {})
        rows = compute_services.get_all(host=req.GET.get('host'), binary=req.GET.get('binary'))
        up, seen = _liveness(rows)
        return {'services': [_view(row, row['id'] in up, seen, req) for row in rows]}

    @validation.documented(body=schema.documented_update_body,
                           response=schema.update_response,
                           path={'service_id': schema.service_id})
    def update(self, req, service_id):
        if req.at_least(avr.SERVICE_UUIDS):
            return self._update(req, service_id)
        return self._act(req, service_id)

    # ------------------------------------------------- 2.53: by UUID

    def _update(self, req, service_id):
        # Nova's order: the body, the id, the policy, the service, the rules
        body = validation.validate(req.json_body(), schema.update_body)
        if not uuidutils.is_uuid_like(service_id):
            raise _invalid_uuid(service_id)
        policy.authorize(req.context, policies.UPDATE, {})
        row = compute_services.get(uuid=service_id)
        if row is None:
            raise exception.ServiceNotFound(service_id=service_id)
        _only_compute(row['binary'])
        values = {}
        if body.get('status') == 'enabled':
            if body.get('disabled_reason'):
                raise faults.BadRequest(
                    "Specifying 'disabled_reason' with status 'enabled' is invalid.")
            values.update(disabled=False, disabled_reason=None)
        elif body.get('status') == 'disabled':
            values.update(disabled=True, disabled_reason=body.get('disabled_reason'))
        if 'forced_down' in body:
            values['forced_down'] = strutils.bool_from_string(body['forced_down'], strict=True)
        if not values:
            raise faults.BadRequest("No updates were requested. Fields 'status' or "
                                    "'forced_down' should be specified.")
        _change(row['host'], row['binary'], **values)
        row = compute_services.get(uuid=service_id)
        if row is None:     # deleted in the meantime
            raise exception.ServiceNotFound(service_id=service_id)
        up, seen = _liveness([row])
        return {'service': _view(row, row['id'] in up, seen, req)}

    # ------------------------------------- before 2.53: the action form

    def _act(self, req, action):
        body_schema = validation.for_version(schema.ACTION_BODIES, req)
        body = validation.validate(req.json_body(), body_schema)
        policy.authorize(req.context, policies.UPDATE, {})
        actions = {'enable': self._enable, 'disable': self._disable,
                   'disable-log-reason': self._disable_log_reason}
        if req.at_least(avr.SERVICE_FORCE_DOWN):
            actions['force-down'] = self._force_down
        handler = actions.get(action)
        if handler is None:
            raise faults.NotFound('Unknown action')
        return handler(body['host'], body['binary'], body)

    @staticmethod
    def _enable(host, binary, body):
        _change(host, binary, disabled=False, disabled_reason=None)
        return {'service': {'host': host, 'binary': binary, 'status': 'enabled'}}

    @staticmethod
    def _disable(host, binary, body):
        _change(host, binary, disabled=True, disabled_reason=None)
        return {'service': {'host': host, 'binary': binary, 'status': 'disabled'}}

    @staticmethod
    def _disable_log_reason(host, binary, body):
        reason = body.get('disabled_reason')
        if reason is None:
            raise faults.BadRequest('Missing disabled reason field')
        _change(host, binary, disabled=True, disabled_reason=reason)
        return {'service': {'host': host, 'binary': binary, 'status': 'disabled',
                            'disabled_reason': reason}}

    @staticmethod
    def _force_down(host, binary, body):
        if 'forced_down' not in body:
            raise faults.BadRequest('Missing forced_down field')
        forced_down = strutils.bool_from_string(body['forced_down'])
        _change(host, binary, forced_down=forced_down)
        return {'service': {'host': host, 'binary': binary, 'forced_down': forced_down}}

    # ----------------------------------------------------------- delete

    @wsgi.status(204)
    @validation.documented(path={'service_id': schema.service_id})
    def delete(self, req, service_id):
        policy.authorize(req.context, policies.DELETE, {})
        if req.at_least(avr.SERVICE_UUIDS):
            if not uuidutils.is_uuid_like(service_id):
                raise _invalid_uuid(service_id)
            row = compute_services.get(uuid=service_id)
        else:
            try:
                number = strutils.validate_integer(service_id, 'id')
            except ValueError as exc:
                raise faults.BadRequest('Invalid input received: %s' % exc)
            row = compute_services.get(service_id=number)
        # a nova-compute with servers on its host: ServiceHostsInstances (409)
        if row is None or not compute_services.destroy(row['id']):
            raise faults.NotFound('Service %s not found.' % service_id)
