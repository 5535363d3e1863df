"""What the per-server view of the host-status events costs in SQL: the
page a project member reads (``GET /os-host-status-events``), one server's
page (``?server_id=``) and the watcher's fan-out of one transition
(``servers_of``), in-process on a SQLite file.

    python -m benchmarks.feed_cost [--servers 20000] [--hosts 100]
        [--events 2000] [--moves 200] [--rounds 7]

Seeds --servers servers on --hosts hosts (half of them in one project, as
benchmarks.seed does), --events transitions spread over the hosts and, with
--moves, that many finished evacuations announced half way through the
events (so the reads must follow where each moved server was). Prints the
best and the median of --rounds calls of each read, then one JSON line.
``--moves 0`` runs on a tree from before evacuations had events.
"""
import argparse
import datetime
import json
import statistics
import time
import uuid as uuidlib

import sqlalchemy as sa

from benchmarks import seed
from nova.db import engine
from nova.db import host_status_events as store
from nova.db.models import host_status_events as events
from nova.db.models import instances, migrations
from nova.tests import fixtures as nova_fixtures


def _seed(servers, hosts, count, moves):
    seed.seed_scale(servers=servers, hosts=hosts, projects=10)
    names = seed.host_names(hosts)
    with engine.writer() as conn:
        now = conn.scalar(sa.select(store.db_now()))
        conn.execute(sa.insert(events), [dict(
            uuid=str(uuidlib.uuid4()), host=names[index % hosts], binary='nova-compute',
            old_status='UP', new_status='UNKNOWN', liveness='stale', admin_state='enabled',
            reason='heartbeat_stale', at=now + datetime.timedelta(microseconds=index))
            for index in range(count)])
        if moves:
            moved = conn.execute(
                sa.select(instances.c.uuid, instances.c.host)
                .where(instances.c.host.is_not(None), instances.c.project_id == seed.PROJECT)
                .order_by(instances.c.id).limit(moves)).all()
            conn.execute(sa.insert(migrations), [dict(
                uuid=str(uuidlib.uuid4()), instance_uuid=row.uuid,
                migration_type='evacuation', source_compute=row.host,
                dest_compute=names[(names.index(row.host) + 1) % hosts], status='done',
                host_status_event_id=count // 2, deleted=0) for row in moved])
            conn.execute(sa.update(instances).where(
                instances.c.uuid.in_([row.uuid for row in moved]))
                .values(host=names[0]))


def _time(read, rounds):
    read()
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        rows = read()
        timings.append((time.perf_counter() - started) * 1000)
    return {'rows': len(rows), 'best_ms': round(min(timings), 1),
            'median_ms': round(statistics.median(timings), 1)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--servers', type=int, default=20000)
    parser.add_argument('--hosts', type=int, default=100)
    parser.add_argument('--events', type=int, default=2000)
    parser.add_argument('--moves', type=int, default=200)
    parser.add_argument('--rounds', type=int, default=7)
    args = parser.parse_args(argv)
    database = nova_fixtures.Database()
    database.setUp()
    try:
        _seed(args.servers, args.hosts, args.events, args.moves)
        with engine.reader() as conn:
            one = conn.scalar(sa.select(instances.c.uuid).where(
                instances.c.project_id == seed.PROJECT, instances.c.host.is_not(None))
                .order_by(instances.c.id))
        middle = args.events // 2
        reads = {
            'project page, first': lambda: store.server_page((0, 0), 1000, seed.PROJECT),
            'project page, middle': lambda: store.server_page((middle, 0), 1000,
                                                              seed.PROJECT),
            'server page': lambda: store.server_page((0, 0), 1000, server_id=one),
            'fan-out of one event': lambda: store.servers_of(middle),
        }
        figures = {name: _time(read, args.rounds) for name, read in reads.items()}
    finally:
        database.cleanUp()
    print('%-22s %6s %9s %9s' % ('read', 'rows', 'best ms', 'median ms'))
    for name, figure in figures.items():
        print('%-22s %6d %9.1f %9.1f' % (name, figure['rows'], figure['best_ms'],
                                         figure['median_ms']))
    print(json.dumps(figures))


if __name__ == '__main__':
    main()
