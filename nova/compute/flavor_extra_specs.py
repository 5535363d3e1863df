"""Flavor extra specs: read by anyone who may read the flavor, written by
admins (policy decides in the API). Values are kept as text; a number
given is kept as its text, as Nova does."""
import json

from nova.db import flavors as flavor_db
from nova.db import engine
from nova.db import flavor_extra_specs as db
from nova import exception


def _flavor(flavor_id):
    flavor = flavor_db.flavor_get(flavor_id)
    if flavor is None:
        raise exception.FlavorNotFound(flavor_id=flavor_id)
    return flavor


def get_all(flavor_id):
    return db.of_flavor(_flavor(flavor_id)['id'])


def get(flavor_id, key):
    specs = get_all(flavor_id)
    if key not in specs:
        raise exception.FlavorExtraSpecsNotFound(flavor_id=flavor_id, extra_specs_key=key)
    return specs[key]


def update(flavor_id, specs):
    """Set the keys of ``specs`` (text values) on the flavor."""
    db.update(_flavor(flavor_id)['id'], specs)


def delete(flavor_id, key):
    if not db.delete(_flavor(flavor_id)['id'], key):
        raise exception.FlavorExtraSpecsNotFound(flavor_id=flavor_id, extra_specs_key=key)


def for_flavors(flavors):
    """{flavor row's ``id``: {key: value}} for flavor rows (the flavor
    views' extra_specs, 2.61): one statement for a whole page."""
    with engine.reader() as conn:
        return db.by_flavor(conn, [flavor['id'] for flavor in flavors])


def for_flavor(flavor):
    """One flavor row's extra specs."""
    return for_flavors([flavor])[flavor['id']]


def from_copy(text):
    """The extra specs a server kept of its flavor (instances.flavor_extra_specs)."""
    return json.loads(text) if text else {}
