"""Heartbeats at scale, per liveness driver (db, lease on Redis, lease on etcd;
benchmarks.liveness_scale measures the lease driver at 10,000 hosts),
from one load process running the real driver code, and what they cost the
API; plus what one liveness read (hosts_up) costs per group size.

    python -m benchmarks.heartbeat_scale [--seconds 20] [--rounds 20]
        [--drivers db,redis,etcd] [--read-cost-only] [--no-read-cost]

1. hosts_up cost: 100, 1,000 and 5,000 members joined to a Redis and an
   etcd group; the median of --rounds calls of ToozDriver.hosts_up for a
   page's hosts (up to 1,000 of them). tooz reads every member of the group
   (Redis: HGETALL plus an MGET of every member's heartbeat key; etcd: one
   range over the group's prefix) and etcd's raft term, whatever the page.
2. Load: 1,000 members heartbeating every 1 s, then 10,000 every 10 s (the
   same 1,000 heartbeats/s offered), for --seconds each, by --threads
   threads of one process calling what the driver's heartbeat loop calls
   each beat (db: service_db.service_heartbeat; tooz: one membership's beat(), one
   tooz coordinator per member, the URL's executor=synchronous so 10,000
   coordinators do not need 10,000 threads). Printed side by side: the
   heartbeats/s achieved, the heartbeat writes/s that reached the SQL
   database (the growth of sum(report_count), read from the database), the
   backend's operations/s (Redis: total_commands_processed; etcd: the gRPC
   calls it handled), and GET /servers/detail?limit=1000 at 2.16 as admin
   (100,000 servers on 5,000 hosts, SQLite) idle and while the heartbeats
   run.
"""
import argparse
import gc
import os
import statistics
import tempfile
import threading
import time
import urllib.request

import sqlalchemy as sa

from benchmarks import measure
from benchmarks import seed
from benchmarks import server as server_mod
import nova.conf
from nova.conf import liveness_backend
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.db.models import services
from nova.servicegroup.drivers import lease
from nova.servicegroup.drivers.lease import etcd_members
from nova.servicegroup.drivers.lease import redis_members
from nova.tests.functional import liveness_servers

SERVERS = 100000
HOSTS = 5000
DETAIL = '/v2.1/servers/detail?all_tenants=1&limit=1000'
LOADS = ((1000, 1), (10000, 10))      # (members, seconds between heartbeats)
READ_SIZES = (100, 1000, 5000)
CONF = nova.conf.CONF


# --------------------------------------------------------------- backends

class Backend:
    """A liveness backend of this run's own, and how busy it is."""

    def __init__(self, name):
        self.name = name
        self.server = None
        if name == 'redis':
            self.server = liveness_servers.Redis()
        elif name == 'etcd':
            self.server = liveness_servers.Etcd()
        if self.server is not None:
            self.server.setUp()

    def url(self, **options):
        query = '&'.join('%s=%s' % item for item in options.items())
        return self.server.url + ('?' + query if query else '')

    def operations(self):
        if self.name == 'redis':
            return int(self.server.info('stats')['total_commands_processed'])
        if self.name == 'etcd':
            with urllib.request.urlopen('http://127.0.0.1:%d/metrics' % self.server.port,
                                        timeout=10) as response:
                return sum(int(float(line.split()[-1]))
                           for line in response.read().decode().splitlines()
                           if line.startswith('grpc_server_handled_total{'))
        return None

    def close(self):
        if self.server is not None:
            self.server.cleanUp()


def parsed(url, down_time):
    return liveness_backend.parse(url, down_time)


def members_for(backend, hosts, down_time, already=0):
    """One membership per host of the lease driver, joined. ``already``:
    members joined before these (unused: a join reads nothing)."""
    parsed_url = parsed(backend.url(), down_time)
    module = etcd_members if backend.name == 'etcd' else redis_members
    memberships = [module.Membership(parsed_url, host) for host in hosts]
    for membership in memberships:
        membership.beat()
    return memberships


# ------------------------------------------------------------ read cost

def read_cost(names, rounds):
    print('\n== hosts_up cost (median of %d calls; the page asks for up to 1,000 hosts)'
          % rounds, flush=True)
    print('%-6s %8s %10s %12s' % ('driver', 'members', 'join (s)', 'hosts_up'))
    for name in names:
        if name == 'db':
            continue
        backend = Backend(name)
        try:
            joined = 0
            hosts = seed.host_names(max(READ_SIZES))
            for size in READ_SIZES:
                start = time.monotonic()
                # joined, then let go: the members outlive their 600 s
                # timeout's worth of this benchmark, and thousands of
                # coordinators in this process would slow its garbage
                # collector, not the read (an API process holds none)
                members_for(backend, hosts[joined:size], 600, already=joined)
                join_seconds = time.monotonic() - start
                gc.collect()
                joined = size
                CONF.set_override('backend_url', backend.url(), group='servicegroup')
                CONF.set_override('service_down_time', 600)
                driver = lease.LeaseDriver()
                page = {host: {'host': host, 'forced_down': False}
                        for host in hosts[:min(size, 1000)]}
                assert driver.hosts_up(page) == set(page), 'members missing'
                samples = []
                for _ in range(rounds):
                    begin = time.perf_counter()
                    driver.hosts_up(page)
                    samples.append(time.perf_counter() - begin)
                print('%-6s %8d %10.1f %10.2f ms' % (name, size, join_seconds,
                                                     1000 * statistics.median(samples)),
                      flush=True)
        finally:
            backend.close()


# ------------------------------------------------------------------ load

class Load:
    """``threads`` threads beating ``beaters`` (callables), each every
    ``interval`` seconds, their phases spread evenly over the interval."""

    def __init__(self, beaters, interval, threads):
        self.beaters, self.interval, self.threads = beaters, interval, threads
        self.stopping = threading.Event()
        self.done = 0
        self.failed = 0
        self._lock = threading.Lock()

    def start(self):
        self.began = time.monotonic()
        self.returned = [threading.Event() for _ in range(self.threads)]
        for k in range(self.threads):
            threading.Thread(target=self._run, args=(k,), daemon=True).start()

    def _run(self, k):
        try:
            self._beat_slice(k)
        finally:
            self.returned[k].set()

    def _beat_slice(self, k):
        mine = self.beaters[k::self.threads]
        step = self.interval / max(1, len(self.beaters))
        due = [self.began + (k + i * self.threads) * step for i in range(len(mine))]
        while not self.stopping.is_set():
            for i, beat in enumerate(mine):
                delay = due[i] - time.monotonic()
                if delay > 0 and self.stopping.wait(delay):
                    return
                try:
                    beat()
                    ok = 1
                except Exception:
                    ok = 0
                with self._lock:
                    self.done += ok
                    self.failed += 1 - ok
                due[i] = max(due[i] + self.interval, time.monotonic())

    def stop(self):
        # not join(): a thread that ran tooz code can stay "alive" after it
        # returned until a garbage collection (noticed with tooz 9.1)
        self.stopping.set()
        for returned in self.returned:
            returned.wait(60)


def sql_heartbeats():
    with engine.reader() as conn:
        return conn.scalar(sa.select(sa.func.coalesce(sa.func.sum(services.c.report_count), 0)))


def time_detail(client, seconds=None, rounds=None):
    samples = []
    deadline = time.monotonic() + (seconds or 1e9)
    while time.monotonic() < deadline and (rounds is None or len(samples) < rounds):
        elapsed, _ = client.get(DETAIL, measure.ADMIN, '2.16')
        samples.append(elapsed)
    return samples


def ensure_seeded(data_dir):
    marker = os.path.join(data_dir, 'seeded')
    if os.path.exists(marker):
        return
    seed.seed_scale(SERVERS, HOSTS)
    # the services of the hosts beyond the servers' 5,000, for 10,000 members
    now = dbtime.db_time()
    with engine.writer() as conn:
        conn.execute(sa.insert(services), [dict(
            uuid='bench-%05d' % i, host=host, binary=service_db.COMPUTE_BINARY, report_count=0,
            disabled=False, forced_down=False, deleted=0, created_at=now, last_seen_up=now)
            for i, host in enumerate(seed.host_names(max(m for m, _ in LOADS))[HOSTS:])])
    seed.analyze()
    open(marker, 'w').close()


def load_runs(names, seconds, threads, data_dir):
    print('\n== heartbeat load: %d s each, %d load threads, detail?limit=1000 at 2.16 '
          '(admin, %d servers on %d hosts, SQLite)' % (seconds, threads, SERVERS, HOSTS),
          flush=True)
    print('%-6s %15s %10s %10s %12s %12s %12s' % (
        'driver', 'members/period', 'beats/s', 'SQL wr/s', 'backend op/s',
        'detail idle', 'detail load'))
    for name in names:
        for members, interval in LOADS:
            down_time = 3 * interval
            backend = Backend(name)
            extra = os.path.join(data_dir, 'liveness.conf')
            with open(extra, 'w') as f:
                f.write('[DEFAULT]\nreport_interval = %d\n' % interval)
                if backend.server is not None:
                    f.write('[servicegroup]\ndriver = lease\nbackend_url = %s\n'
                            % backend.url())
            try:
                with server_mod.AllInOne(data_dir, service_down_time=down_time,
                                         config_files=[extra]) as api:
                    ensure_seeded(data_dir)
                    hosts = seed.host_names(members)
                    if backend.server is None:
                        with engine.reader() as conn:
                            ids = dict(conn.execute(sa.select(services.c.host, services.c.id)
                                                    .where(services.c.host.in_(hosts))).all())
                        beaters = [lambda i=ids[h]: service_db.service_heartbeat(i) for h in hosts]
                    else:
                        beaters = [m.beat for m in members_for(backend, hosts, down_time)]
                    client = measure.Client(api.port)
                    time_detail(client, rounds=5)               # warm
                    idle = time_detail(client, rounds=30)
                    load = Load(beaters, interval, threads)
                    load.start()
                    time.sleep(min(interval, 5))                # settle
                    sql0, ops0, done0 = sql_heartbeats(), backend.operations(), load.done
                    began = time.monotonic()
                    busy = time_detail(client, seconds=seconds)
                    elapsed = time.monotonic() - began
                    sql1, ops1, done1 = sql_heartbeats(), backend.operations(), load.done
                    load.stop()
                    client.close()
                ops = '-' if ops0 is None else '%.0f' % ((ops1 - ops0) / elapsed)
                print('%-6s %15s %10.0f %10.0f %12s %9.1f ms %9.1f ms%s' % (
                    name, '%d/%ds' % (members, interval), (done1 - done0) / elapsed,
                    (sql1 - sql0) / elapsed, ops, 1000 * statistics.median(idle),
                    1000 * statistics.median(busy),
                    '  (%d failed beats)' % load.failed if load.failed else ''), flush=True)
            finally:
                backend.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seconds', type=int, default=20)
    parser.add_argument('--rounds', type=int, default=20)
    parser.add_argument('--threads', type=int, default=8)
    parser.add_argument('--drivers', default='db,redis,etcd')
    parser.add_argument('--data-dir', help='keep (and reuse) the seeded database here')
    parser.add_argument('--read-cost-only', action='store_true')
    parser.add_argument('--no-read-cost', action='store_true')
    args = parser.parse_args()
    names = args.drivers.split(',')
    print('%d cores; %s' % (os.cpu_count(), open('/proc/loadavg').read().strip()))
    if not args.no_read_cost:
        read_cost(names, args.rounds)
    if args.read_cost_only:
        return
    data_dir = args.data_dir or tempfile.mkdtemp(prefix='heartbeat-scale-')
    os.makedirs(data_dir, exist_ok=True)
    load_runs(names, args.seconds, args.threads, data_dir)


if __name__ == '__main__':
    main()
