"""Request bodies and responses of /flavors/{flavor_id}/os-extra_specs.
Values may be given as numbers (kept as their text); answers to a read
always carry text."""
from nova.api.openstack.compute.schemas import parameter_types as types

_specs = types.metadata(['string', 'number'], in_columns=True)
create = {'type': 'object', 'properties': {'extra_specs': _specs},
          'required': ['extra_specs'], 'additionalProperties': False}
# one key, the URL's
update = dict(_specs, minProperties=1, maxProperties=1)

key = {'type': 'string'}
list_response = {'type': 'object', 'required': ['extra_specs'],
                 'properties': {'extra_specs': types.metadata()}}
create_response = create
one_key_response = update
