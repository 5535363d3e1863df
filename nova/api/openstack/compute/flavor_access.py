"""/flavors/{flavor_id}/os-flavor-access and the flavor actions
addTenantAccess and removeTenantAccess: which projects may see and use a
private flavor. Admins only, by default.

Nova's order, kept: the action's body, policy, the project (see
identity.py), the flavor, then the grant itself.
"""
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import identity
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import flavor_access as schema
from nova.compute import flavors
from nova.policies import flavor_access as policies
from nova import policy


def _view(flavor, projects):
    return {'flavor_access': [{'flavor_id': flavor['flavorid'], 'tenant_id': project}
                              for project in projects]}


class FlavorAccessController:

    @validation.documented(response=schema.access_response)
    def index(self, req, flavor_id):
        context = req.context
        policy.authorize(context, policies.LIST,
                         {'project_id': context.project_id, 'user_id': context.user_id})
        flavor = flavors.get(context, flavor_id)
        if flavor['is_public']:
            raise faults.NotFound('Access list not available for public flavors.')
        return _view(flavor, flavors.projects(flavor))

    @validation.documented(body={'oneOf': [schema.add_tenant_access,
                                           schema.remove_tenant_access]},
                           response=schema.access_response)
    def action(self, req, flavor_id):
        name, body = common.action(req)
        handler, body_schema = {
            'addTenantAccess': (self._add, schema.add_tenant_access),
            'removeTenantAccess': (self._remove, schema.remove_tenant_access),
        }.get(name, (None, None))
        if handler is None:
            raise faults.BadRequest('There is no such action: %s' % name)
        project_id = validation.validate(body, body_schema)[name]['tenant']
        return handler(req, flavor_id, project_id)

    @staticmethod
    def _add(req, flavor_id, project_id):
        policy.authorize(req.context, policies.ADD, {})
        identity.verify_project_id(req.context, project_id)
        flavor = flavors.get(req.context, flavor_id)
        if flavor['is_public'] and req.at_least(avr.FLAVOR_ACCESS_PUBLIC_CONFLICT):
            raise faults.Conflict('Can not add access to a public flavor.')
        return _view(flavor, flavors.add_project(flavor, project_id))

    @staticmethod
    def _remove(req, flavor_id, project_id):
        # an unknown project is no error here: it holds no grant to remove
        policy.authorize(req.context, policies.REMOVE, {})
        flavor = flavors.get(req.context, flavor_id)
        return _view(flavor, flavors.remove_project(flavor, project_id))
