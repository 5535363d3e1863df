"""Listing migrations (evacuations, the only moves here) for the API."""
from nova.db import migration_records


def get_all(filters, limit=None, marker=None):
    """A page of migrations as migration_records.migration_list reads it."""
    return migration_records.migration_list(filters, limit, marker)
