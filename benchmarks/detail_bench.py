"""GET /servers/detail and GET /servers/{id} with host_status, over HTTP.

    python -m benchmarks.detail_bench            (or: tox -e bench)

Seeds 1000 servers on 50 hosts (10% stale, 10% disabled, 10% forced down)
through the DB API, serves the API exactly as nova-all-in-one does (nova-api
under gunicorn, same config files, ephemeral port), and times each request
at 2.15 and 2.16, alternating their order, as admin and as a member, then
the same requests in-process on the WSGI app, in CPU time. SQL statements are
counted in-process on the same WSGI app and database. Then the scale case:
100,000 servers on 5,000 hosts, first page and a deep page.
"""
import argparse
import collections
import contextlib
import json
import os
import random
import statistics
import tempfile
import threading

import sqlalchemy as sa

from benchmarks import measure
from benchmarks import seed
from benchmarks import server as server_mod
from nova.api.openstack import app as app_mod
from nova.db import engine
from nova.db.models import instances

VERSIONS = ('2.15', '2.16')
IN_PROCESS = ('in-process: the same requests on the WSGI app called directly, timed in '
              'CPU time of the calling thread (steadier than wall time on a busy machine)')


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=300,
                        help='timed requests per case and version (default 300)')
    parser.add_argument('--scale-rounds', type=int, default=60)
    parser.add_argument('--servers', type=int, default=1000)
    parser.add_argument('--hosts', type=int, default=50)
    parser.add_argument('--scale-servers', type=int, default=100000)
    parser.add_argument('--scale-hosts', type=int, default=5000)
    parser.add_argument('--no-scale', action='store_true', help='skip the scale case')
    parser.add_argument('--data-dir', help='keep state here instead of a temp dir')
    parser.add_argument('--backend', choices=('sqlite', 'mysql', 'postgresql'),
                        default='sqlite',
                        help='database of nova-api: the embedded SQLite file (default), '
                             'or a new database on the local MariaDB/PostgreSQL server, '
                             'found as the backend tests find it and dropped afterwards')
    return parser.parse_args(argv)


@contextlib.contextmanager
def database(args, data_dir):
    """[extra config files] pointing nova-api at the chosen backend."""
    if args.backend == 'sqlite':
        yield []
        return
    from nova.tests.functional.db import backends   # the test requirements' provisioning
    created = backends.Database(args.backend)
    try:
        os.makedirs(data_dir, exist_ok=True)
        path = os.path.join(data_dir, 'database.conf')
        with open(path, 'w') as f:
            f.write('[database]\nconnection = %s\n' % created.connection)
        yield [path]
    finally:
        engine.reset()
        created.drop()


class CpuLoad:
    """Machine-wide CPU use between start() and stop(), from /proc/stat."""

    @staticmethod
    def _read():
        with open('/proc/stat') as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + fields[4]
        return sum(fields), idle

    def start(self):
        self.begin = self._read()
        with open('/proc/loadavg') as f:
            self.loadavg_before = f.read().split()[:3]

    def stop(self):
        total, idle = self._read()
        busy = 1 - (idle - self.begin[1]) / max(1, total - self.begin[0])
        with open('/proc/loadavg') as f:
            loadavg = f.read().split()[:3]
        return 'cpu busy %.0f%% of %d cores; loadavg %s -> %s' % (
            100 * busy, os.cpu_count(), ' '.join(self.loadavg_before), ' '.join(loadavg))


class Heartbeats(threading.Thread):
    """The seeded live hosts keep reporting every report_interval, as their
    nova-compute would (writes race with the reads being measured)."""

    def __init__(self, service_ids, interval=10):
        super().__init__(daemon=True)
        self.service_ids, self.interval = service_ids, interval
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.wait(self.interval):
            seed.heartbeat(self.service_ids)


def time_cases(client, cases, rounds, warmup=5):
    """{(label, role, version): [seconds]}; both versions of a case run back
    to back, their order alternating by round, the cases shuffled per round,
    so sample i of 2.15 and sample i of 2.16 are a pair measured together."""
    samples = collections.defaultdict(list)
    sizes = {}
    rng = random.Random(1)
    for round_no in range(-warmup, rounds):
        order = list(cases)
        rng.shuffle(order)
        for label, role, path in order:
            versions = VERSIONS if round_no % 2 == 0 else VERSIONS[::-1]
            for version in versions:
                elapsed, body = client.get(path, cases_token(role), version)
                if round_no >= 0:
                    samples[(label, role, version)].append(elapsed)
                    sizes[(label, role, version)] = len(body)
    return samples, sizes


def cases_token(role):
    return measure.ADMIN if role == 'admin' else measure.MEMBER


def count_statements(app, cases):
    """Statements of each case as a client polling it sees them: the second
    of two requests (the first pays a connection's one-time setup)."""
    counter = measure.StatementCounter()
    counts, bodies = {}, {}
    try:
        for label, role, path in cases:
            for version in VERSIONS:
                counter.count(app, path, cases_token(role), version)
                count, status, body = counter.count(app, path, cases_token(role), version)
                if status != 200:
                    raise RuntimeError('in-process %s %s: %s' % (version, path, status))
                counts[(label, role, version)] = count
                bodies[(label, role, version)] = body
    finally:
        counter.close()
    return counts, bodies


def table(cases, samples, sizes, counts):
    head = ('%-26s %-6s %9s %9s %9s %9s %7s %5s %5s %9s'
            % ('request', 'role', '2.15 med', '2.15 p90', '2.16 med', '2.16 p90',
               '16/15*', 'sql15', 'sql16', 'bytes16'))
    lines = [head, '-' * len(head)]
    for label, role, _ in cases:
        med15, p15 = measure.summary(samples[(label, role, '2.15')])
        med16, p16 = measure.summary(samples[(label, role, '2.16')])
        ratio = statistics.median(
            b / a for a, b in zip(samples[(label, role, '2.15')], samples[(label, role, '2.16')]))
        lines.append('%-26s %-6s %8.2fms %8.2fms %8.2fms %8.2fms %7.3f %5d %5d %9d' % (
            label, role, med15 * 1e3, p15 * 1e3, med16 * 1e3, p16 * 1e3, ratio,
            counts[(label, role, '2.15')], counts[(label, role, '2.16')],
            sizes[(label, role, '2.16')]))
    lines.append('* 16/15: median over rounds of the 2.16/2.15 ratio of a pair measured back '
                 'to back; sql: statements per request, BEGIN included')
    return '\n'.join(lines)


def host_status_mix(body):
    servers = json.loads(body)['servers']
    return dict(collections.Counter(s.get('host_status', '<absent>') for s in servers))


def small_case(args, data_dir):
    print('== %d servers on %d hosts (10%% stale, 10%% disabled, 10%% forced down), %s'
          % (args.servers, args.hosts, args.backend), flush=True)
    case_dir = os.path.join(data_dir, 'small')
    with database(args, case_dir) as extra, \
            server_mod.AllInOne(case_dir, config_files=extra) as api:
        beating, _ = seed.seed_small(args.servers, args.hosts)
        seed.analyze()
        heartbeats = Heartbeats(beating)
        heartbeats.start()
        try:
            with engine.reader() as conn:
                show_uuid = conn.scalar(sa.select(instances.c.uuid).where(
                    instances.c.host.is_not(None)).order_by(instances.c.id).limit(1))
            cases = []
            for limit in (10, 100, 1000):
                cases.append(('detail?limit=%d' % limit, 'admin',
                              '/v2.1/servers/detail?all_tenants=1&limit=%d' % limit))
                cases.append(('detail?limit=%d' % limit, 'member',
                              '/v2.1/servers/detail?limit=%d' % limit))
            cases.append(('show', 'admin', '/v2.1/servers/%s' % show_uuid))
            cases.append(('show', 'member', '/v2.1/servers/%s' % show_uuid))
            counts, bodies = count_statements(app_mod.ComputeAPI(), cases)
            print('host_status (admin, 2.16, limit=1000):',
                  host_status_mix(bodies[('detail?limit=1000', 'admin', '2.16')]))
            client = measure.Client(api.port)
            load = CpuLoad()
            load.start()
            samples, sizes = time_cases(client, cases, args.rounds)
            load_text = load.stop()
            client.close()
            cpu = time_cases(measure.InProcess(app_mod.ComputeAPI()), cases, args.rounds)
        finally:
            heartbeats.stopping.set()
            heartbeats.join()
    print(table(cases, samples, sizes, counts))
    print('%d timed requests per cell; %s' % (args.rounds, load_text), flush=True)
    print(IN_PROCESS)
    print(table(cases, *cpu, counts), flush=True)


def scale_case(args, data_dir):
    print('\n== scale: %d servers on %d hosts, detail?limit=1000, %s'
          % (args.scale_servers, args.scale_hosts, args.backend), flush=True)
    # Liveness is seeded once, so a long service_down_time keeps the picture fixed.
    case_dir = os.path.join(data_dir, 'scale')
    with database(args, case_dir) as extra, \
            server_mod.AllInOne(case_dir, service_down_time=86400, config_files=extra) as api:
        seed.seed_scale(args.scale_servers, args.scale_hosts)
        seed.analyze()
        cases = []
        for role, scope, path in (
                ('admin', instances.c.deleted == 0, '/v2.1/servers/detail?all_tenants=1'),
                ('member', instances.c.project_id == seed.PROJECT,
                 '/v2.1/servers/detail')):
            with engine.reader() as conn:
                total = conn.scalar(sa.select(sa.func.count()).where(scope))
                deep = int(total * 0.9)
                marker = conn.scalar(
                    sa.select(instances.c.uuid).where(scope)
                    .order_by(instances.c.created_at.desc(), instances.c.id.desc())
                    .offset(deep).limit(1))
            cases.append(('first page', role, path + ('&' if '?' in path else '?')
                          + 'limit=1000'))
            cases.append(('page after #%d' % (deep + 1), role,
                          path + ('&' if '?' in path else '?')
                          + 'limit=1000&marker=%s' % marker))
        counts, _ = count_statements(app_mod.ComputeAPI(), cases)
        client = measure.Client(api.port)
        load = CpuLoad()
        load.start()
        samples, sizes = time_cases(client, cases, args.scale_rounds)
        load_text = load.stop()
        client.close()
        cpu = time_cases(measure.InProcess(app_mod.ComputeAPI()), cases, args.scale_rounds)
    print(table(cases, samples, sizes, counts))
    print('%d timed requests per cell; %s' % (args.scale_rounds, load_text), flush=True)
    print(IN_PROCESS)
    print(table(cases, *cpu, counts), flush=True)


def main(argv=None):
    args = parse(argv)
    if args.data_dir:
        data_dir = args.data_dir
        os.makedirs(data_dir, exist_ok=True)
        small_case(args, data_dir)
        if not args.no_scale:
            scale_case(args, data_dir)
        return 0
    with tempfile.TemporaryDirectory(prefix='nova-bench-') as data_dir:
        small_case(args, data_dir)
        if not args.no_scale:
            scale_case(args, data_dir)
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
