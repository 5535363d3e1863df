"""Seed a database for the benchmarks.

``seed_small`` goes through the DB API functions (the real stack): service
registration, operator updates, heartbeats, server creation and faults.
Stale heartbeats are written directly (waiting for them to age is pointless).
``seed_scale`` uses bulk INSERTs: 100,000 servers one by one would take
longer than the whole benchmark.
"""
import datetime
import json
import random
import uuid as uuidlib

import sqlalchemy as sa

from nova.api.openstack import client_documents
from nova.db import dbtime
from nova.db import instance_tags as tag_db
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db.models import flavors, instance_faults, instance_tags, instances, services

PROJECT = 'demo'
USER = 'demo'
IMAGE = client_documents.IMAGES[0]['id']
NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.'


def host_names(count):
    return ['bench-host-%05d' % i for i in range(count)]


def split_hosts(hosts):
    """10% stale, 10% disabled, 10% forced down, the rest up."""
    tenth = len(hosts) // 10
    return {'stale': hosts[:tenth], 'disabled': hosts[tenth:2 * tenth],
            'forced': hosts[2 * tenth:3 * tenth], 'up': hosts[3 * tenth:]}


_FLAVOR_COPIES = {}


def _flavor_copy(flavor_id):
    """The flavor columns compute.create copies into a server."""
    if not _FLAVOR_COPIES:
        with engine.reader() as conn:
            for flavor in conn.execute(sa.select(flavors)).mappings():
                _FLAVOR_COPIES[flavor['flavorid']] = instance_db.flavor_copy(flavor)
    return _FLAVOR_COPIES[flavor_id]


def _tags(index):
    """A third of the servers carry a tag or two (the 2.26 page reads them)."""
    if index % 3:
        return []
    return ['ha'] + (['tier-web'] if index % 2 == 0 else [])


def _server(index, host, rng, project=PROJECT, user=USER):
    """Column values of one server, shaped like compute.create's rows."""
    roll = rng.random()
    name = 'server-%06d' % index
    row = dict(
        uuid=str(uuidlib.UUID(int=rng.getrandbits(128), version=4)), display_name=name,
        hostname=name, project_id=project, user_id=user, image_ref=IMAGE,
        flavor_id=str(1 + index % 5), reservation_id='r-%08x' % index, launch_index=0,
        metadata=json.dumps({'ha': 'true', 'tier': 'web'}) if index % 5 == 0 else '{}',
        security_groups=json.dumps(['default']) if index % 10 else None,
        key_name='bench-key' if index % 3 == 0 else None, power_state=1, progress=0,
        access_ip_v4=None, access_ip_v6=None, config_drive='', disk_config='MANUAL',
        display_description=None, tags=tag_db.tags_text(_tags(index)),
        **_flavor_copy(str(1 + index % 5)))
    if host is None or roll < 0.01:
        row.update(vm_state='error', task_state=None, power_state=0,
                   availability_zone='', _fault=True)
    else:
        row.update(host=host, node=host, availability_zone='nova',
                   vm_state='stopped' if roll > 0.95 else 'active', task_state=None,
                   power_state=4 if roll > 0.95 else 1)
    return row


def seed_small(servers=1000, hosts=50, seed=5):
    """Services through the DB API; servers through instance_db.instances_create."""
    rng = random.Random(seed)
    names = host_names(hosts)
    groups = split_hosts(names)
    ids = {h: service_db.service_register(h, service_db.COMPUTE_BINARY)['id'] for h in names}
    for host in groups['disabled']:
        service_db.service_update(host, service_db.COMPUTE_BINARY, disabled=True,
                                  disabled_reason='bench maintenance')
    for host in groups['forced']:
        service_db.service_update(host, service_db.COMPUTE_BINARY, forced_down=True)
    beating = [ids[h] for h in names if h not in groups['stale']]
    heartbeat(beating)
    make_stale(groups['stale'])
    rows, faulted = [], []
    for index in range(servers):
        row = _server(index, names[index % hosts] if index % 97 else None, rng)
        if row.pop('_fault', False):
            faulted.append(row['uuid'])
        rows.append(row)
    instance_db.instances_create(rows)
    insert_tags(rows)
    launched = dbtime.db_time()
    with engine.writer() as conn:
        conn.execute(sa.update(instances).where(instances.c.vm_state != 'error')
                     .values(launched_at=launched))
    for uuid in faulted:
        instance_db.instance_fault_create(uuid, 500, NO_VALID_HOST,
                                          details='No enabled nova-compute service is up.')
    return beating, groups


def analyze():
    """Planner statistics as a server database keeps them on its own
    (autovacuum, InnoDB's background recalculation), which a database
    seeded a moment ago does not have yet. SQLite gathers none unless told,
    and the embedded default never tells it: left alone there."""
    statements = {
        'postgresql': ['ANALYZE'],
        'mysql': ['ANALYZE TABLE services, instances, instance_faults, instance_tags'],
    }
    with engine.writer() as conn:
        for statement in statements.get(conn.dialect.name, []):
            conn.exec_driver_sql(statement).close()


def insert_tags(rows, first=0):
    """The tags of servers seeded in order from index ``first``."""
    tag_rows = [{'resource_id': row['uuid'], 'tag': tag}
                for index, row in enumerate(rows, first) for tag in _tags(index)]
    if tag_rows:
        with engine.writer() as conn:
            conn.execute(sa.insert(instance_tags), tag_rows)


def heartbeat(service_ids):
    for service_id in service_ids:
        service_db.service_heartbeat(service_id)


def make_stale(hosts, age=datetime.timedelta(days=2)):
    old = dbtime.db_time() - age
    with engine.writer() as conn:
        conn.execute(sa.update(services).where(services.c.host.in_(hosts))
                     .values(last_seen_up=old, created_at=old))


def seed_scale(servers=100000, hosts=5000, projects=100, seed=7, batch=5000):
    """Bulk INSERTs; half the servers belong to PROJECT, the rest spread."""
    rng = random.Random(seed)
    names = host_names(hosts)
    groups = split_hosts(names)
    now = dbtime.db_time()
    stale_at = now - datetime.timedelta(days=2)
    with engine.writer() as conn:
        conn.execute(sa.insert(services), [dict(
            uuid=str(uuidlib.uuid4()), host=h, binary=service_db.COMPUTE_BINARY, topic=None,
            report_count=1, disabled=h in groups['disabled'],
            disabled_reason='bench maintenance' if h in groups['disabled'] else None,
            forced_down=h in groups['forced'], deleted=0,
            created_at=stale_at, last_seen_up=stale_at if h in groups['stale'] else now)
            for h in names])
    start = now - datetime.timedelta(seconds=servers)
    faults = []
    for first in range(0, servers, batch):
        rows = []
        for index in range(first, min(first + batch, servers)):
            project = PROJECT if index % 2 == 0 else 'project-%03d' % (index % projects)
            row = _server(index, names[index % hosts] if index % 97 else None, rng,
                          project=project, user=project)
            created = start + datetime.timedelta(seconds=index)
            if row.pop('_fault', False):
                faults.append(dict(instance_uuid=row['uuid'], code=500,
                                   message=NO_VALID_HOST, created_at=created, deleted=0))
            for key in ('host', 'node'):
                row.setdefault(key, None)
            row.update(created_at=created, updated_at=created, deleted=0,
                       launched_at=created if row['vm_state'] != 'error' else None)
            rows.append(row)
        with engine.writer() as conn:
            conn.execute(sa.insert(instances), rows)
        insert_tags(rows, first)
    with engine.writer() as conn:
        conn.execute(sa.insert(instance_faults), faults)
