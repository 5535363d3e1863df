"""Request bodies and responses of /flavors/{flavor_id}/os-flavor-access
and of the flavor's addTenantAccess and removeTenantAccess actions."""
from nova.api.openstack.compute.schemas import parameter_types


def _action(name):
    return {
        'type': 'object',
        'properties': {
            name: {
                'type': 'object',
                'properties': {'tenant': {'type': 'string', 'minLength': 1,
                                          'maxLength': 255,
                                          'pattern': parameter_types.NO_NUL}},
                'required': ['tenant'],
                'additionalProperties': False,
            },
        },
        'required': [name],
        'additionalProperties': False,
    }


add_tenant_access = _action('addTenantAccess')
remove_tenant_access = _action('removeTenantAccess')

access_response = {
    'type': 'object', 'required': ['flavor_access'],
    'properties': {'flavor_access': {'type': 'array', 'items': {
        'type': 'object', 'required': ['flavor_id', 'tenant_id'],
        'properties': {'flavor_id': {'type': 'string'}, 'tenant_id': {'type': 'string'}}}}},
}
