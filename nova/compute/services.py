"""Compute services as os-services reads and changes them (the statements
live in nova.db.services; the API reaches them here)."""
from nova.db.models import COMPUTE_BINARY
from nova.db.services import service_destroy as destroy
from nova.db.services import service_get as get
from nova.db.services import service_list as get_all
from nova.db.services import service_update as update

__all__ = ['COMPUTE_BINARY', 'destroy', 'get', 'get_all', 'update']
