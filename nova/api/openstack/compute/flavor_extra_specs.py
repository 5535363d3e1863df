"""/flavors/{flavor_id}/os-extra_specs[/{key}]: a flavor's extra specs.
Anyone who may read flavors reads them; administrators set and delete
them. POST and PUT answer with the body as sent (a number stays a number,
as in Nova's answer), later reads with the text kept.

Order, as Nova's: the body's schema, the policy, a value's length, the
URL's key (PUT), then the flavor and the key.
"""
from oslo_utils import strutils

from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import flavor_extra_specs as schema
from nova.compute import flavor_extra_specs as compute
from nova.policies import flavor_extra_specs as policies
from nova import policy

_PATH = {'flavor_id': {'type': 'string'}, 'key': schema.key}


def _authorize(req, rule):
    policy.authorize(req.context, rule, {'project_id': req.context.project_id})


def _as_text(specs):
    """The values to keep: a number as its text, which must fit as any."""
    kept = {}
    for key, value in specs.items():
        if not isinstance(value, str):
            value = str(value)
            try:
                strutils.check_string_length(value, 'extra_specs value', max_length=255)
            except ValueError as exc:
                raise faults.BadRequest(str(exc))
        kept[key] = value
    return kept


class FlavorExtraSpecsController:

    @validation.documented(response=schema.list_response, path={'flavor_id': _PATH['flavor_id']})
    def index(self, req, flavor_id):
        _authorize(req, policies.INDEX)
        return {'extra_specs': compute.get_all(flavor_id)}

    @validation.documented(body=schema.create, response=schema.create_response,
                           path={'flavor_id': _PATH['flavor_id']})
    def create(self, req, flavor_id):
        body = validation.validate(req.json_body(), schema.create)
        _authorize(req, policies.CREATE)
        compute.update(flavor_id, _as_text(body['extra_specs']))
        return body

    @validation.documented(response=schema.one_key_response, path=_PATH)
    def show(self, req, flavor_id, key):
        _authorize(req, policies.SHOW)
        return {key: compute.get(flavor_id, key)}

    @validation.documented(body=schema.update, response=schema.one_key_response, path=_PATH)
    def update(self, req, flavor_id, key):
        body = validation.validate(req.json_body(), schema.update)
        _authorize(req, policies.UPDATE)
        specs = _as_text(body)
        if key not in specs:
            raise faults.BadRequest('Request body and URI mismatch')
        compute.update(flavor_id, specs)
        return body

    @validation.documented(path=_PATH)
    def delete(self, req, flavor_id, key):
        _authorize(req, policies.DELETE)
        compute.delete(flavor_id, key)
