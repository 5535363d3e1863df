"""Flavors as the API reads them (the statements live in nova.db.api; the
API reaches them here)."""
from nova.db.api import FLAVOR_SORT_KEYS as SORT_KEYS
from nova.db.api import flavor_get as get
from nova.db.api import flavor_list as get_all

__all__ = ['SORT_KEYS', 'get', 'get_all']
