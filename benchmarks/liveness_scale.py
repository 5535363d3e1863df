"""The lease liveness driver at cloud scale, on a Redis and an etcd of this
run's own, with load processes that really offer the heartbeats.

    python -m benchmarks.liveness_scale [--seconds 60] [--hosts 10000]
        [--processes 4] [--backends redis,etcd]

For each backend:

1. hosts_up cost: 100, 1,000 and then --hosts members alive; the median of
   21 calls of LeaseDriver.hosts_up for a page of 1,000 hosts (at 100,
   900 of them are not members); and, as "under load", the median of the
   reads during step 2: the liveness part of a detail?limit=1000 page
   while the cloud beats.
2. Load: --hosts simulated hosts beating (Redis every 1 s, etcd every 5 s)
   from --processes processes for --seconds: Redis pipelines each second's
   EVALSHAs of a process in one round trip, etcd sends each process's
   keepalives on 32 kept-alive connections from asyncio (a requests
   session's milliseconds per call would cap a process near 400 a
   second). A beat counts as achieved once the backend answered it.
   Meanwhile the main process reads a page of 1,000 of those hosts every
   0.2 s: a read that raises (UNKNOWN) or misses a live host is
   a false UNKNOWN. ops_per_beat: the backend's client operations during
   the load (Redis: commandstats less INFO; etcd: gRPC calls started, less
   the reader's own ticks and watch) per achieved beat.
3. time_to_truth: 40 more hosts, beaten by the main process, stop at known
   times during the load; the time from each one's last acknowledged beat
   to the first read that does not show it UP (service_down_time is 10 s).

The table, then one JSON line (the issue's figures) as the last line.
"""
import argparse
import asyncio
import json
import multiprocessing
import statistics
import time

import fixtures

import nova.conf
from nova import exception
from nova.conf import liveness_backend
from nova.servicegroup.drivers import lease
from nova.servicegroup.drivers.lease import etcd_members
from nova.servicegroup.drivers.lease import redis_members
from nova.tests.functional import liveness_servers

CONF = nova.conf.CONF
DOWN_TIME = 10
INTERVAL = {'redis': 1, 'etcd': 5}
SIZES = (100, 1000)
PAGE = 1000
VICTIMS = 40
CONNECTIONS = 32        # per etcd load process
JOIN_SECONDS = {'redis': 5, 'etcd': 30}


def _configure(url):
    CONF([], project='nova', default_config_files=[])
    CONF.set_override('driver', 'lease', group='servicegroup')
    CONF.set_override('backend_url', url, group='servicegroup')
    CONF.set_override('service_down_time', DOWN_TIME)
    CONF.set_override('report_interval', 1)


def _rows(hosts):
    return {host: {'host': host, 'forced_down': False} for host in hosts}


# ----------------------------------------------------------- load processes

def _redis_load(url, hosts, seconds, start_at, done):
    backend = liveness_backend.parse(url, DOWN_TIME)
    client = redis_members.client(backend)
    script = client.register_script(redis_members.BEAT)
    keys = [redis_members.key(host) for host in hosts]
    script(keys=[keys[0], redis_members.SINCE], args=[DOWN_TIME])   # loads it
    beats = 0
    next_round = start_at
    while True:
        time.sleep(max(0.0, next_round - time.time()))
        if time.time() >= start_at + seconds:
            break
        pipe = client.pipeline(transaction=False)
        for key in keys:
            script(keys=[key, redis_members.SINCE], args=[DOWN_TIME], client=pipe)
        try:
            beats += len(pipe.execute())
        except Exception:       # a failed round: those beats are not achieved
            pass
        next_round += INTERVAL['redis']
    done.put(beats)


class _Gateway:
    """One kept-alive HTTP/1.1 connection to etcd's gateway, on asyncio:
    a beat costs the load process tens of microseconds, not the
    milliseconds of a requests session, so a few processes offer 10,000
    hosts' beats."""

    def __init__(self, host, port):
        self.host, self.port = host, port

    async def connect(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def post(self, path, body):
        data = json.dumps(body).encode()
        self.writer.write(b'POST /v3%s HTTP/1.1\r\nHost: %s\r\nContent-Type: '
                          b'application/json\r\nContent-Length: %d\r\n\r\n%s' % (
                              path.encode(), self.host.encode(), len(data), data))
        status = await self.reader.readline()
        headers = {}
        while (line := await self.reader.readline()) not in (b'\r\n', b''):
            name, _, value = line.decode().partition(':')
            headers[name.strip().lower()] = value.strip()
        if headers.get('transfer-encoding') == 'chunked':
            payload = b''
            while (size := int(await self.reader.readline(), 16)):
                payload += await self.reader.readexactly(size + 2)
                payload = payload[:-2]
            await self.reader.readline()
        else:
            payload = await self.reader.readexactly(int(headers['content-length']))
        if b' 200 ' not in status:
            raise RuntimeError('%s: %s' % (status.decode().strip(), payload[:200]))
        return json.loads(payload)


async def _etcd_beats(gateway, hosts, seconds, start_at):
    """Each of ``hosts`` joins (a grant and a put) and then beats, as
    etcd_members.Membership does, through one connection; the achieved
    beats."""
    leases, terms, beats = {}, {}, 0

    async def beat(host):
        lease = leases.get(host)
        if lease is not None:
            term = etcd_members.kept_alive(
                await gateway.post(*etcd_members.keepalive_request(lease)))
            if term is not None:
                if term != terms[host]:
                    await gateway.post(*etcd_members.put_request(
                        etcd_members.key(host), lease, term))
                    terms[host] = term
                return
        granted = await gateway.post(*etcd_members.grant_request(DOWN_TIME))
        leases[host], terms[host] = int(granted['ID']), int(granted['header']['raft_term'])
        await gateway.post(*etcd_members.put_request(etcd_members.key(host), leases[host],
                                                     terms[host]))

    await gateway.connect()
    for host in hosts:
        await beat(host)                # joined before the load starts
    next_round = start_at
    while True:
        await asyncio.sleep(max(0.0, next_round - time.time()))
        if time.time() >= start_at + seconds:
            return beats
        for host in hosts:
            try:
                await beat(host)
                beats += 1
            except (OSError, RuntimeError, asyncio.IncompleteReadError):
                await gateway.connect()
        next_round += INTERVAL['etcd']


def _etcd_load(url, hosts, seconds, start_at, done):
    backend = liveness_backend.parse(url, DOWN_TIME)
    host, port = backend.endpoints[0]

    async def offer():
        shares = [hosts[i::CONNECTIONS] for i in range(CONNECTIONS)]
        return sum(await asyncio.gather(*(
            _etcd_beats(_Gateway(host, port), share, seconds, start_at)
            for share in shares if share)))
    done.put(asyncio.run(offer()))


LOADERS = {'redis': _redis_load, 'etcd': _etcd_load}


def _offer(kind, url, hosts, processes, seconds, start_at):
    # spawned: a forked child would share this process's clients and threads
    context = multiprocessing.get_context('spawn')
    done = context.Queue()
    workers = [context.Process(target=LOADERS[kind],
                                       args=(url, hosts[i::processes], seconds, start_at,
                                             done))
               for i in range(processes)]
    for worker in workers:
        worker.start()
    return workers, done


def _collect(workers, done):
    beats = sum(done.get(timeout=600) for _ in workers)
    for worker in workers:
        worker.join()
    return beats


# ------------------------------------------------------------------ phases

def _median_read(driver, hosts, alive):
    """A page of PAGE hosts, the first ``alive`` of them members."""
    page = _rows(hosts[:PAGE])
    driver.hosts_up(page)
    timings = []
    for _ in range(21):
        started = time.perf_counter()
        answer = driver.hosts_up(page)
        timings.append(time.perf_counter() - started)
        if answer != set(hosts[:min(alive, PAGE)]):
            raise RuntimeError('%d of %d hosts up' % (len(answer), min(alive, PAGE)))
    return statistics.median(timings) * 1000


def _wait_all_up(driver, hosts, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if len(driver.hosts_up(_rows(hosts))) == len(hosts):
                return
        except exception.ServiceGroupUnavailable:
            pass
        time.sleep(0.2)
    raise RuntimeError('the hosts never all read UP')


def run_backend(kind, server, total, processes, seconds):
    _configure(server.url)
    driver = lease.LeaseDriver()
    hosts = ['sim-%05d' % index for index in range(total)]
    figures = {'hosts_up_ms': {}}
    read_sizes = [size for size in SIZES if size < total] + [total]
    joined, phases = 0, []
    for size in read_sizes:
        # members joined (and kept alive) by load processes while read
        # (the queue is kept: a child unpickles it after its start)
        phases.append(_offer(kind, server.url, hosts[joined:size], processes, 3600,
                             time.time() + 1))
        joined = size
        _wait_all_up(driver, hosts[:size])
        figures['hosts_up_ms'][str(size)] = _median_read(driver, hosts, size)
    for workers, _ in phases:
        for worker in workers:
            worker.terminate()
            worker.join()
    figures.update(_load(kind, server, driver, hosts, processes, seconds))
    return figures


def _load(kind, server, driver, hosts, processes, seconds):
    interval = INTERVAL[kind]
    # the load processes join their hosts before this (new leases on etcd:
    # two requests a host), so that the joins are not counted as beats
    start_at = time.time() + JOIN_SECONDS[kind]
    workers, done = _offer(kind, server.url, hosts, processes, seconds, start_at)
    victims = ['victim-%02d' % index for index in range(VICTIMS)]
    module = etcd_members if kind == 'etcd' else redis_members
    memberships = {host: module.Membership(driver.backend, host) for host in victims}
    last_beat = {}
    page = _rows(hosts[:PAGE - VICTIMS] + victims)
    time.sleep(max(0.0, start_at - time.time()))
    # the victims stop one after another in the first half of the load
    stop_at = {host: time.monotonic() + 2 * interval + index * seconds / 2 / VICTIMS
               for index, host in enumerate(victims)}
    before_ops = server.operations()
    before_by_kind = server.operations_by_kind()
    false_unknown = reads = victim_beats = 0
    read_ms = []
    seen_down = {}
    end = time.monotonic() + seconds
    next_victim_beat = time.monotonic()
    while time.monotonic() < end:
        now = time.monotonic()
        if now >= next_victim_beat:
            for host, membership in memberships.items():
                if now < stop_at[host]:
                    membership.beat()
                    last_beat[host] = time.monotonic()
                    victim_beats += 1
            next_victim_beat = now + 1
        started = time.perf_counter()
        try:
            up = driver.hosts_up(page)
        except exception.ServiceGroupUnavailable:
            false_unknown += 1
            up = None
        read_ms.append((time.perf_counter() - started) * 1000)
        reads += 1
        if up is not None:
            now = time.monotonic()
            live = set(page) - set(victims)
            if live - up and now - start_at > interval:
                false_unknown += 1
            for host in victims:
                if host not in up and now >= stop_at[host] and host not in seen_down:
                    seen_down[host] = now - last_beat[host]
        time.sleep(0.2)
    ops = server.operations() - before_ops
    by_kind = {name: count - before_by_kind.get(name, 0)
               for name, count in server.operations_by_kind().items()
               if count != before_by_kind.get(name, 0)}
    beats = _collect(workers, done)
    offered = len(hosts) / interval
    own = server.own_operations(seconds) if kind == 'etcd' else 0
    truth = sorted(seen_down.values())
    return {
        'beats_offered_per_s': offered,
        'beats_achieved_per_s': beats / seconds,
        'ops_per_beat': (ops - own) / max(beats + victim_beats, 1),
        'false_unknown': false_unknown,
        'reads': reads,
        'ops_by_kind': by_kind,
        'hosts_up_loaded_ms': statistics.median(read_ms),
        'time_to_truth_p99_s': (truth[min(len(truth) - 1, int(len(truth) * 0.99))]
                                if truth else None),
        'time_to_truth_n': len(truth),
    }


class _RedisServer(liveness_servers.Redis):
    def own_operations(self, seconds):
        return 0

    def operations_by_kind(self):
        return {name[len('cmdstat_'):]: int(value.split('calls=')[1].split(',')[0])
                for name, value in self.info('commandstats').items()
                if name.startswith('cmdstat_')}


class _EtcdServer(liveness_servers.Etcd):
    def operations_by_kind(self):
        return {name.split('grpc_method="')[1].split('"')[0]: int(value)
                for name, value in self.metrics().items()
                if name.startswith('grpc_server_started_total{') and value}

    def own_operations(self, seconds):
        # the reader's ticks (every service_down_time / 6) and its watch
        return int(seconds / (DOWN_TIME / 6)) + 1


SERVERS = {'redis': _RedisServer, 'etcd': _EtcdServer}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seconds', type=int, default=60)
    parser.add_argument('--hosts', type=int, default=10000)
    parser.add_argument('--processes', type=int, default=4)
    parser.add_argument('--backends', default='redis,etcd')
    args = parser.parse_args(argv)
    results = {}
    for kind in args.backends.split(','):
        with fixtures.Fixture() as scope:
            server = scope.useFixture(SERVERS[kind]())
            if kind == 'redis':
                server.in_service()
            results[kind] = run_backend(kind, server, args.hosts, args.processes,
                                        args.seconds)
    sizes = [str(size) for size in SIZES if size < args.hosts] + [str(args.hosts)]
    print('%-8s %s %12s %12s %12s %10s %14s %18s' % (
        'backend', ' '.join('%12s' % ('hosts_up@%s' % s) for s in sizes), 'under load',
        'beats/s off', 'beats/s ach', 'ops/beat', 'false UNKNOWN', 'time_to_truth p99'))
    for kind, r in results.items():
        print('%-8s %s %10.2fms %12.0f %12.0f %10.2f %14s %18s' % (
            kind, ' '.join('%10.2fms' % r['hosts_up_ms'][s] for s in sizes),
            r['hosts_up_loaded_ms'],
            r['beats_offered_per_s'], r['beats_achieved_per_s'], r['ops_per_beat'],
            '%d/%d' % (r['false_unknown'], r['reads']),
            '%.2f s (n=%d)' % (r['time_to_truth_p99_s'] or -1, r['time_to_truth_n'])))
    for kind, r in results.items():
        print('%s operations during the load, by kind: %s' % (kind, r['ops_by_kind']))
    print(json.dumps({
        'hosts_up_ms': {kind: {s: round(r['hosts_up_ms'][s], 3) for s in sizes}
                        for kind, r in results.items()},
        'ops_per_beat': {kind: round(r['ops_per_beat'], 3) for kind, r in results.items()},
        'false_unknown': {kind: r['false_unknown'] for kind, r in results.items()},
        'time_to_truth_p99_s': {kind: r['time_to_truth_p99_s'] and round(
            r['time_to_truth_p99_s'], 2) for kind, r in results.items()},
        'beats_achieved_per_s': {kind: round(r['beats_achieved_per_s'], 1)
                                 for kind, r in results.items()},
    }))


if __name__ == '__main__':
    main()
