"""/os-aggregates: host aggregates, for administrators, as Nova serves
them: list, create, show, update, delete, and the add_host, remove_host
and set_metadata actions; ``uuid`` from 2.41.

Order, as Nova's: the body's schema (and an action's name), the policy,
the id (400 unless an integer), then the aggregate and its rules
(nova.compute.aggregates).
"""
from oslo_utils import strutils

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import aggregates as schema
from nova.compute import aggregates as compute
from nova.policies import aggregates as policies
from nova import policy


def _id(text):
    try:
        return strutils.validate_integer(text, 'id')
    except ValueError as exc:
        raise faults.BadRequest('Invalid input received: %s' % exc)


def _view(req, aggregate, with_members=True):
    """Nova's keys in Nova's order; create's answer has no hosts and no
    metadata."""
    view = {'id': aggregate['id']}
    if req.at_least(avr.AGGREGATE_UUID):
        view['uuid'] = aggregate['uuid']
    view['name'] = aggregate['name']
    if with_members:
        view['hosts'] = aggregate['hosts']
        view['metadata'] = aggregate['metadata']
    view.update(created_at=common.isotime_micro(aggregate['created_at']),
                updated_at=common.isotime_micro(aggregate['updated_at']),
                deleted_at=None, deleted=False,
                availability_zone=aggregate['metadata'].get(compute.AZ_KEY))
    return view


class AggregatesController:

    def __init__(self):
        # action name -> (handler, its body schema, its policy)
        self._actions = {
            'add_host': (self._add_host, schema.add_host, policies.ADD_HOST),
            'remove_host': (self._remove_host, schema.remove_host, policies.REMOVE_HOST),
            'set_metadata': (self._set_metadata, schema.set_metadata, policies.SET_METADATA),
        }

    @validation.documented(response=schema.list_response)
    def index(self, req):
        policy.authorize(req.context, policies.INDEX, {})
        return {'aggregates': [_view(req, a) for a in compute.list_all()]}

    @validation.documented(body=schema.create, response=schema.create_response)
    def create(self, req):
        body = validation.validate(req.json_body(), schema.create)['aggregate']
        policy.authorize(req.context, policies.CREATE, {})
        aggregate = compute.create(body['name'], body.get('availability_zone'))
        return {'aggregate': _view(req, aggregate, with_members=False)}

    @validation.documented(response=schema.show_response,
                           path={'aggregate_id': schema.aggregate_id})
    def show(self, req, aggregate_id):
        policy.authorize(req.context, policies.SHOW, {})
        return {'aggregate': _view(req, compute.get(_id(aggregate_id)))}

    @validation.documented(body=schema.update, response=schema.show_response,
                           path={'aggregate_id': schema.aggregate_id})
    def update(self, req, aggregate_id):
        values = validation.validate(req.json_body(), schema.update)['aggregate']
        policy.authorize(req.context, policies.UPDATE, {})
        if 'name' in values:
            values['name'] = values['name'].strip()
        return {'aggregate': _view(req, compute.update(_id(aggregate_id), values))}

    @validation.documented(path={'aggregate_id': schema.aggregate_id})
    def delete(self, req, aggregate_id):
        policy.authorize(req.context, policies.DELETE, {})
        compute.delete(_id(aggregate_id))

    @validation.documented(body={'oneOf': [schema.add_host, schema.remove_host,
                                           schema.set_metadata]},
                           response=schema.show_response,
                           path={'aggregate_id': schema.aggregate_id})
    def action(self, req, aggregate_id):
        name, body = common.action(req)
        if name not in self._actions:
            raise faults.BadRequest('There is no such action: %s' % name)
        handler, body_schema, rule = self._actions[name]
        validation.validate(body, body_schema)
        policy.authorize(req.context, rule, {})
        return {'aggregate': _view(req, handler(_id(aggregate_id), body[name]))}

    @staticmethod
    def _add_host(aggregate_id, body):
        return compute.add_host(aggregate_id, body['host'])

    @staticmethod
    def _remove_host(aggregate_id, body):
        return compute.remove_host(aggregate_id, body['host'])

    @staticmethod
    def _set_metadata(aggregate_id, body):
        return compute.set_metadata(aggregate_id, body['metadata'])
