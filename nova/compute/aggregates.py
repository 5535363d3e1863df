"""Host aggregates and their availability-zone rules, as Nova applies
them. Every change runs in one transaction that takes the aggregate's row
first (db.lock): its checks and its writes see one state, and a refused
request changes nothing (Nova renames before it judges the zone of an
update; here a refused update renames nothing).

The rules: an aggregate's zone is its ``availability_zone`` metadata key,
never empty; a host belongs to one zone at most, so it joins a zoned
aggregate only when its other aggregates name the same zone (or none); a
host whose servers would see their zone change neither joins nor leaves,
and a zone does not change under hosts that run servers.
"""
from nova.db import aggregates as db
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova import exception

AZ_KEY = db.AZ_KEY
_ZONE_MOVES = (
    "The host cannot be %s the aggregate as the availability zone of the host would "
    "change from '%s' to '%s' but the host already has %d instance(s). Changing the AZ "
    "of an existing instance is not supported by this action. Move the instances away "
    "from this host then try again. If you need to move the instances between AZs then "
    "you can use shelve_offload and unshelve to achieve this.")


def list_all():
    with engine.reader() as conn:
        return db.list_all(conn)


def get(aggregate_id):
    with engine.reader() as conn:
        return _get(conn, aggregate_id)


def _locked(conn, aggregate_id):
    """The aggregate, its row taken for the transaction (db.lock)."""
    if not db.lock(conn, aggregate_id):
        raise exception.AggregateNotFound(aggregate_id=aggregate_id)
    return db.get(conn, aggregate_id)


def _get(conn, aggregate_id):
    aggregate = db.get(conn, aggregate_id)
    if aggregate is None:
        raise exception.AggregateNotFound(aggregate_id=aggregate_id)
    return aggregate


def create(name, availability_zone=None):
    with engine.writer() as conn:
        metadata = {AZ_KEY: availability_zone} if availability_zone else {}
        return db.get(conn, db.create(conn, name, metadata))


def update(aggregate_id, values):
    """Rename and/or move to another zone (``values``: name,
    availability_zone). A zone change answers with the time of the change
    as ``updated_at``, as Nova does, though only a rename stores one."""
    with engine.writer() as conn:
        aggregate = _locked(conn, aggregate_id)
        if 'name' in values:
            db.rename(conn, aggregate_id, values['name'])
        changed = None
        if AZ_KEY in values:
            zone = values[AZ_KEY]
            _check_zone(conn, aggregate, zone, aggregate['hosts'],
                        exception.InvalidAggregateActionUpdate, with_servers=True)
            db.update_metadata(conn, aggregate_id, {AZ_KEY: zone})
            changed = db.now(conn)
        return _answer(conn, aggregate_id, changed)


def set_metadata(aggregate_id, metadata):
    """Set keys (a None value removes its key); answers with the time of
    the change as ``updated_at``, which Nova does not store."""
    with engine.writer() as conn:
        aggregate = _locked(conn, aggregate_id)
        if AZ_KEY in metadata:
            _check_zone(conn, aggregate, metadata[AZ_KEY], aggregate['hosts'],
                        exception.InvalidAggregateActionUpdateMeta, with_servers=True)
        db.update_metadata(conn, aggregate_id, metadata)
        return _answer(conn, aggregate_id, db.now(conn))


def _answer(conn, aggregate_id, changed_at):
    aggregate = db.get(conn, aggregate_id)
    if changed_at is not None:
        aggregate['updated_at'] = changed_at
    return aggregate


def delete(aggregate_id):
    with engine.writer() as conn:
        aggregate = _locked(conn, aggregate_id)
        if aggregate['hosts']:
            raise exception.InvalidAggregateActionDelete(
                aggregate_id=aggregate_id, reason='Host aggregate is not empty')
        db.destroy(conn, aggregate_id)


def add_host(aggregate_id, host):
    with engine.writer() as conn:
        found = db.lock(conn, aggregate_id)
        db.lock_host(conn, host)
        if not _is_compute_host(conn, host):
            raise exception.ComputeHostNotFound(host=host)
        if not found:
            raise exception.AggregateNotFound(aggregate_id=aggregate_id)
        aggregate = db.get(conn, aggregate_id)
        zone = aggregate['metadata'].get(AZ_KEY)
        if zone is not None:
            _check_zone(conn, aggregate, zone, [host], exception.InvalidAggregateActionAdd)
            servers = _servers_on(conn, host)
            zones = sorted({z for _, z in db.zones_of_hosts(conn, [host])})
            old = zones[0] if zones else None
            if servers and old != zone:
                raise exception.InvalidAggregateActionAdd(
                    aggregate_id=aggregate_id,
                    reason=_ZONE_MOVES % ('added to', old, zone, servers))
        db.add_host(conn, aggregate_id, host)
        return db.get(conn, aggregate_id)


def remove_host(aggregate_id, host):
    with engine.writer() as conn:
        not_removed = exception.AggregateHostNotRemoved(host=host, aggregate_id=aggregate_id)
        if not db.lock(conn, aggregate_id) or not _is_compute_host(conn, host):
            raise not_removed
        aggregate = db.get(conn, aggregate_id)
        zone = aggregate['metadata'].get(AZ_KEY)
        servers = _servers_on(conn, host)
        if zone is not None and servers:
            zones = sorted({z for other, z in db.zones_of_hosts(conn, [host])
                            if other != aggregate_id})
            new = zones[0] if zones else None
            if new != zone:
                raise exception.InvalidAggregateActionRemoveHost(
                    aggregate_id=aggregate_id,
                    reason=_ZONE_MOVES % ('removed from', zone, new, servers))
        if not db.remove_host(conn, aggregate_id, host):
            raise not_removed
        return db.get(conn, aggregate_id)


def _check_zone(conn, aggregate, zone, hosts, error, with_servers=False):
    """``error`` when ``hosts`` may not be in ``zone`` with ``aggregate``."""
    def refuse(reason):
        raise error(aggregate_id=aggregate['id'], reason=reason)
    if not zone:
        refuse('Aggregate %s does not support empty named availability zone'
               % aggregate['name'])
    others = [z for other, z in db.zones_of_hosts(conn, hosts)
              if z != zone and other != aggregate['id']]
    if others:
        refuse('One or more hosts already in availability zone(s) %s' % others)
    if (with_servers and hosts and aggregate['metadata'].get(AZ_KEY) != zone
            and any(instance_db.instance_counts_by_host(conn, hosts).values())):
        refuse('One or more hosts contain instances in this zone')


def _is_compute_host(conn, host):
    # exactly: MariaDB/MySQL would match 'HOST-1' to host-1 (Nova checks too)
    return any(row['host'] == host for row in service_db.services_with_liveness(
        conn, host=host, binary=service_db.COMPUTE_BINARY))


def _servers_on(conn, host):
    return instance_db.instance_counts_by_host(conn, [host]).get(host, 0)
