"""Flavors as the API reads them (the list and its sort keys, show) and
their management: create (a generated id when none is given), the
description (2.55), delete, and the projects granted a private flavor.
The statements live in nova.db; the API reaches them here."""
from oslo_utils import strutils
from oslo_utils import uuidutils

from nova import exception
from nova.db import flavors as db_flavors
from nova.db.flavors import FLAVOR_SORT_KEYS as SORT_KEYS
from nova.db.flavors import flavor_list as get_all
from nova.db.types import MAX_FLOAT, MAX_INT

__all__ = ['MAX_FLOAT', 'MAX_INT', 'SORT_KEYS', 'add_project', 'create', 'delete', 'get',
           'get_all', 'projects', 'remove_project', 'update_description']

# flavors column -> (the name Nova's messages give it, its least value)
_COUNTS = (('memory_mb', 'ram', 1), ('vcpus', 'vcpus', 1), ('root_gb', 'disk', 0),
           ('ephemeral_gb', 'ephemeral', 0), ('swap', 'swap', 0))


def _invalid(reason):
    return exception.InvalidInput(reason='Invalid input received: %s' % reason)


def create(name, flavorid, memory_mb, vcpus, root_gb, ephemeral_gb=0, swap=0,
           rxtx_factor=1.0, is_public=True, description=None):
    """Create a flavor and return its row. The counts may come as digit
    strings (the API's schema allows them), so their range is checked here.
    A falsy ``flavorid`` gets a generated uuid; a number is kept as text."""
    values = {'memory_mb': memory_mb, 'vcpus': vcpus, 'root_gb': root_gb,
              'ephemeral_gb': ephemeral_gb, 'swap': swap}
    for column, label, least in _COUNTS:
        try:
            values[column] = strutils.validate_integer(values[column], label, least, MAX_INT)
        except ValueError as exc:
            raise _invalid(exc)
    try:
        rxtx_factor = float(rxtx_factor)
        if not 0 < rxtx_factor <= MAX_FLOAT:
            raise ValueError(rxtx_factor)
    except ValueError:
        raise _invalid("'rxtx_factor' argument must be a float between 0 and %g" % MAX_FLOAT)
    try:
        is_public = strutils.bool_from_string(is_public, strict=True)
    except ValueError:
        raise _invalid('is_public must be a boolean')
    values.update(name=name.strip(), flavorid=str(flavorid or uuidutils.generate_uuid()),
                  rxtx_factor=rxtx_factor, is_public=is_public, disabled=False,
                  description=description)
    return db_flavors.create(values)


delete = db_flavors.destroy


def update_description(flavorid, description):
    """Set (or with None clear) a flavor's description (2.55); returns the
    row, FlavorNotFound when there is no such flavor."""
    return db_flavors.update_description(flavorid, description)


def get(context, flavorid):
    """The flavor as the caller may see it: any for an admin, a public or
    granted one for everyone else; FlavorNotFound otherwise."""
    row = db_flavors.flavor_get(flavorid, project_id=None if context.is_admin else context.project_id)
    if row is None:
        raise exception.FlavorNotFound(flavor_id=flavorid)
    return row


def projects(flavor):
    return db_flavors.projects(flavor['id'])


def add_project(flavor, project_id):
    return db_flavors.add_project(flavor, project_id)


def remove_project(flavor, project_id):
    return db_flavors.remove_project(flavor, project_id)
