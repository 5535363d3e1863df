"""Time to truth: from a compute's last heartbeat to the first UNKNOWN the
API shows for a server on it (report_interval 1 s, service_down_time 3 s),
for the db driver and the tooz driver on Redis and on etcd, in one run.

    python -m benchmarks.time_to_truth [--failures 21] [--victims 3] [--drivers db,redis,etcd]

Each driver gets a nova-all-in-one of its own (SQLite; tooz backends are a
redis-server or an etcd this script starts on free ports) and ``--victims``
extra nova-compute processes, one server on each. A victim fails in turn by
SIGKILL, SIGSTOP or, on tooz, by being cut off from the backend (its own TCP
proxy to it is stopped); the failures of a round are staggered at random
within a second so they fall anywhere in the heartbeat period. Recovery:
restart, SIGCONT, proxy back; the next round starts once every victim reads
UP again.

"Last heartbeat": db: the row's last_seen_up, against the database's clock
when UNKNOWN is seen (SQLite: this machine's clock). tooz: the last bytes
the victim sent to the backend through its proxy (the heartbeat and the
membership check right after it), against the same monotonic clock. The
API is polled every few tens of milliseconds: that is the resolution.
"""
import argparse
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import time

from nova.tests.functional import fixtures as func
from nova.tests.functional import liveness_servers
from nova.tests.functional.db import tcp_proxy

REPORT_INTERVAL = 1
DOWN_TIME = 3
WAIT = 60


class RecordingProxy(tcp_proxy.TcpProxy):
    """A TcpProxy that remembers when a client last sent anything."""
    last_sent = None

    def _pump(self, source, sink):
        try:
            from_client = source.getsockname()[1] == self.port
        except OSError:
            from_client = False
        if not from_client:
            return super()._pump(source, sink)
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                self.last_sent = time.monotonic()
                sink.sendall(data)
        except OSError:
            pass
        tcp_proxy._close(source)
        tcp_proxy._close(sink)


class Victim:
    def __init__(self, nova, host, backend):
        self.nova, self.host, self.backend = nova, host, backend
        self.proxy = None
        text = ''
        if backend is not None:
            self.proxy = RecordingProxy(('127.0.0.1', backend.port))
            self.proxy.setUp()
            scheme = backend.url.split('://')[0]
            text = '[servicegroup]\nbackend_url = %s://127.0.0.1:%d\n' % (scheme, self.proxy.port)
        path = os.path.join(nova.data_dir, host + '.conf')
        with open(path, 'w') as f:
            f.write(text)
        files = [os.path.join(nova.data_dir, n) for n in ('nova.conf', 'flags.conf')]
        files += [os.path.join(nova.data_dir, 'extra.conf')] * os.path.exists(
            os.path.join(nova.data_dir, 'extra.conf'))
        self.config = [a for p in files + [path] for a in ('--config-file', p)]
        self.process = None
        self.start()

    def start(self):
        log = open(os.path.join(self.nova.data_dir, self.host + '.log'), 'ab')
        self.process = subprocess.Popen(
            [sys.executable, '-m', 'nova.cmd.compute', '--host', self.host] + self.config,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()

    def fail(self, mode):
        if mode == 'SIGKILL':
            self.process.kill()
            self.process.wait()
        elif mode == 'SIGSTOP':
            self.process.send_signal(signal.SIGSTOP)
        else:
            self.proxy.stop()

    def recover(self, mode):
        if mode == 'SIGKILL':
            self.start()
        elif mode == 'SIGSTOP':
            self.process.send_signal(signal.SIGCONT)
        else:
            self.proxy.start()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait()
        if self.proxy is not None:
            self.proxy.cleanUp()


def host_status(nova, uuid):
    return nova.show(uuid).json['server']['host_status']


def run_driver(name, failures, victim_count):
    backend = None
    if name != 'db':
        backend = {'redis': liveness_servers.Redis, 'etcd': liveness_servers.Etcd}[name]()
        backend.setUp()
    nova = func.AllInOne(hosts=1, report_interval=REPORT_INTERVAL,
                         service_down_time=DOWN_TIME,
                         servicegroup_url=backend.url if backend else None)
    nova.setUp()
    victims = []
    try:
        peek = None
        if name == 'db':
            from nova.tests.functional.db import backend as db_backend
            peek = db_backend.Peek(_SQLite(nova))
        victims = [Victim(nova, 'victim-%d' % i, backend) for i in range(victim_count)]
        hosts = {s['host'] for s in nova.services()}
        nova._wait(lambda: {s['host'] for s in nova.services() if s['state'] == 'up'}
                   >= {v.host for v in victims}, WAIT, 'victims up')
        nova.host_names = nova.host_names + [v.host for v in victims]
        servers = {v.host: nova.create_server_on(v.host, name=v.host) for v in victims}
        del hosts
        modes = ['SIGKILL', 'SIGSTOP'] + (['cut off'] if backend else [])
        results = {mode: [] for mode in modes}
        rounds = math.ceil(failures / victim_count)
        turn = 0
        for _ in range(rounds):
            pending = {}
            for victim in victims:
                mode = modes[turn % len(modes)]
                turn += 1
                time.sleep(random.uniform(0, REPORT_INTERVAL))
                victim.fail(mode)
                pending[victim.host] = (victim, mode)
            deadline = time.monotonic() + DOWN_TIME + WAIT
            while pending and time.monotonic() < deadline:
                for host, (victim, mode) in list(pending.items()):
                    if host_status(nova, servers[host]) == 'UNKNOWN':
                        seen = time.monotonic()
                        if peek is not None:
                            row = peek.service(host)
                            age = (row['db_now'] - row['last_seen_up']).total_seconds()
                        else:
                            age = seen - victim.proxy.last_sent
                        results[mode].append(age)
                        del pending[host]
                        victim.recover(mode)
                time.sleep(0.02)
            if pending:
                raise SystemExit('%s: %s never turned UNKNOWN' % (name, sorted(pending)))
            for victim in victims:
                nova.wait_for_host_status(servers[victim.host], 'UP', timeout=WAIT)
        return results
    finally:
        for victim in victims:
            victim.stop()
        nova.cleanUp()
        if backend is not None:
            backend.cleanUp()


class _SQLite:
    """What Peek needs of a database: the all-in-one's own SQLite file."""

    def __init__(self, nova):
        self.url = 'sqlite:///%s' % os.path.join(nova.data_dir, 'nova.sqlite')


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--failures', type=int, default=21, help='per driver (default 21)')
    parser.add_argument('--victims', type=int, default=3)
    parser.add_argument('--drivers', default='db,redis,etcd')
    args = parser.parse_args()
    print('report_interval %d s, service_down_time %d s, bound service_down_time + 2 = %d s'
          % (REPORT_INTERVAL, DOWN_TIME, DOWN_TIME + 2))
    print('%-6s %-8s %4s %7s %7s %7s %7s' % ('driver', 'failure', 'n', 'min', 'median', 'p99',
                                              'max'))
    for name in args.drivers.split(','):
        results = run_driver(name, args.failures, args.victims)
        everything = [age for ages in results.values() for age in ages]
        for mode, ages in list(results.items()) + [('all', everything)]:
            if ages:
                print('%-6s %-8s %4d %6.2fs %6.2fs %6.2fs %6.2fs' % (
                    name, mode, len(ages), min(ages), statistics.median(ages),
                    percentile(ages, 0.99), max(ages)), flush=True)


if __name__ == '__main__':
    main()
