"""Migration JSON per microversion, as GET /os-migrations shows it."""
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common


class ViewBuilder:
    """One request's migration JSON (Nova's keys and order)."""

    def __init__(self, req):
        self.uuid = req.at_least(avr.MIGRATIONS_PAGING)
        self.migration_type = req.at_least(avr.MIGRATION_TYPE)

    def show(self, row):
        migration = {'id': row['id']}
        if self.uuid:
            migration['uuid'] = row['uuid']
        migration.update(
            source_compute=row['source_compute'], dest_compute=row['dest_compute'],
            source_node=row['source_node'], dest_node=row['dest_node'],
            # no host addresses or flavor ids are recorded for an evacuation
            dest_host=None, old_instance_type_id=None, new_instance_type_id=None,
            instance_uuid=row['instance_uuid'], status=row['status'])
        if self.migration_type:
            # links only on in-progress live migrations: never here
            migration['migration_type'] = row['migration_type']
        migration['created_at'] = common.isotime_micro(row['created_at'])
        migration['updated_at'] = common.isotime_micro(row['updated_at'])
        return migration
