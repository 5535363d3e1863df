"""Compute services as os-services reads and changes them (the statements
live in nova.db.api; the API reaches them here)."""
from nova.db.api import service_destroy as destroy
from nova.db.api import service_get as get
from nova.db.api import service_list as get_all
from nova.db.api import service_update as update
from nova.db.models import COMPUTE_BINARY

__all__ = ['COMPUTE_BINARY', 'destroy', 'get', 'get_all', 'update']
