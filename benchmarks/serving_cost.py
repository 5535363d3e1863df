"""What serving costs on top of the app: each request in-process against
over HTTP in each serving mode, side by side in one run.

    python -m benchmarks.request_cost [--rounds 12] [--modes uwsgi,gthread,sync]

One database (1000 servers on 50 hosts, as detail_bench) served by:

* ``uwsgi``: ``nova-all-in-one`` as it is (nova-api's default, uWSGI with
  [api] workers and threads);
* ``gthread``: nova-api with ``[api] server = gunicorn`` (gthread workers,
  the default before issue 28), same workers and threads;
* ``sync``: gunicorn's sync worker, 1 process (no keep-alive, no long polls).

For ``show`` and ``detail?limit=10/100/1000`` at 2.16 and 2.73 (admin, all
projects), each mode is timed in the serving processes' CPU time (user and
system of every process of the server: master, workers, the kernel's socket
work for them), per request, on one kept-alive connection and on a new
connection per request; the app itself in this process's thread CPU time,
called as a WSGI app (``load_app()``: the in-process cost). Batches take
turns in an order shuffled per round; the medians over rounds are printed,
with ``http/in-p``, the ratio of a mode's kept-alive cost to the in-process
cost. CPU time, not wall time: a machine shared with other work stretches
the second far more than the first.
"""
import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import psutil
import sqlalchemy as sa

from benchmarks import measure
from benchmarks import seed
from benchmarks import server
from nova.api.openstack import api_version_request
from nova.db import engine
from nova.db.models import instances

MAX = api_version_request.MAX_VERSION
BATCH_SECONDS = 0.25         # CPU per batch: psutil's clock ticks are 10 ms


def requests(show):
    out = []
    for version in ('2.16', MAX):
        out.append(('show', version, '/v2.1/servers/%s' % show))
        for limit in (10, 100, 1000):
            out.append(('detail?limit=%d' % limit, version,
                        '/v2.1/servers/detail?all_tenants=1&limit=%d' % limit))
    return out


def tree(process):
    """A server's processes: ``process`` and every descendant."""
    return [process] + process.children(recursive=True)


def cpu_seconds(processes):
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


class Mode:
    def __init__(self, name, port, root, child=None):
        self.name, self.port, self.child = name, port, child
        self.processes = tree(root)

    def send(self, conn, path, version):
        conn.request('GET', path, headers=measure.headers(measure.ADMIN, version))
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError('%s %s -> %s %s' % (self.name, path, response.status, body[:200]))
        return response.will_close

    def batch(self, path, version, n, keep_alive):
        """Server CPU seconds per request of ``n`` requests."""
        conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=60)
        before = cpu_seconds(self.processes)
        for _ in range(n):
            if self.send(conn, path, version) or not keep_alive:
                conn.close()
                conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=60)
        used = cpu_seconds(self.processes) - before
        conn.close()
        return used / n

    def stop(self):
        if self.child is not None:
            self.child.terminate()
            self.child.wait(30)


def wait_serving(port, process, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit('server on port %d exited' % port)
        try:
            conn = http.client.HTTPConnection('127.0.0.1', port, timeout=5)
            conn.request('GET', '/')
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit('nothing answered on port %d' % port)


def start_modes(api, names, data_dir):
    modes = []
    if 'uwsgi' in names:
        nova_api = [p for p in psutil.Process(api.process.pid).children()
                    if 'nova.cmd.api' in p.cmdline()][0]
        modes.append(Mode('uwsgi', api.port, nova_api))
    if 'gthread' in names:
        port = server.free_port()
        extra = os.path.join(data_dir, 'gthread.conf')
        with open(extra, 'w') as f:
            f.write('[api]\nserver = gunicorn\nbind_port = %d\nmetrics_port = 0\n' % port)
        child = subprocess.Popen(
            [sys.executable, '-m', 'nova.cmd.api'] + api.config_args()
            + ['--config-file', extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_serving(port, child)
        modes.append(Mode('gthread', port, psutil.Process(child.pid), child))
    if 'sync' in names:
        port = server.free_port()
        env = dict(os.environ, NOVA_CONFIG_FILES=','.join(api.config_args()[1::2]))
        child = subprocess.Popen(
            [sys.executable, '-m', 'gunicorn', '-k', 'sync', '-w', '1', '-b',
             '127.0.0.1:%d' % port, 'nova.api.openstack.wsgi_app:init_application()'],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_serving(port, child)
        modes.append(Mode('sync', port, psutil.Process(child.pid), child))
    for mode in modes:
        mode.processes = tree(mode.processes[0])     # the workers, now up
    return modes


def in_process_batch(client, path, version, n):
    total = 0.0
    for _ in range(n):
        total += client.get(path, measure.ADMIN, version)[0]
    return total / n


def run(args):
    with tempfile.TemporaryDirectory(prefix='nova-serving-') as data_dir:
        with server.AllInOne(os.path.join(data_dir, 'aio')) as api:
            seed.seed_small(1000, 50)
            seed.analyze()
            with engine.reader() as conn:
                show = conn.scalar(sa.select(instances.c.uuid).where(
                    instances.c.host.is_not(None)).order_by(instances.c.id).limit(1))
            from nova.api.openstack import wsgi_app
            app = wsgi_app.load_app()
            engine.reset()
            wsgi_app.serve()
            local = measure.InProcess(app)
            modes = start_modes(api, args.modes.split(','), data_dir)
            try:
                return measure_all(args, local, modes, requests(show))
            finally:
                for mode in modes:
                    mode.stop()


def measure_all(args, local, modes, cases):
    # batch sizes from a first look at the in-process cost
    sizes = {}
    for label, version, path in cases:
        local.get(path, measure.ADMIN, version)
        cost = in_process_batch(local, path, version, 3)
        sizes[(label, version)] = max(5, min(200, int(BATCH_SECONDS / max(cost, 1e-4) / 2)))
    results = {}
    rng = random.Random(28)
    for round_no in range(args.rounds):
        turns = [(None, label, version, path) for label, version, path in cases]
        turns += [(mode, label, version, path) for mode in modes
                  for label, version, path in cases]
        rng.shuffle(turns)
        for mode, label, version, path in turns:
            n = sizes[(label, version)]
            if mode is None:
                results.setdefault(('in-process', label, version), []).append(
                    in_process_batch(local, path, version, n))
                continue
            for keep in (True, False):
                results.setdefault((mode.name, keep, label, version), []).append(
                    mode.batch(path, version, n, keep))
        print('round %d/%d done' % (round_no + 1, args.rounds), file=sys.stderr, flush=True)
    report(modes, cases, results)
    return 0


def report(modes, cases, results):
    med = statistics.median
    head = '%-18s %-5s %9s' % ('request', 'mv', 'in-proc')
    for mode in modes:
        head += ' %9s %9s %7s' % (mode.name + ' ka', mode.name + ' new', 'ka/in')
    print('CPU ms per request (medians over rounds); ka: one kept-alive connection, '
          'new: a new connection per request; ka/in: kept-alive over in-process')
    print(head)
    print('-' * len(head))
    for label, version, _ in cases:
        local = med(results[('in-process', label, version)])
        line = '%-18s %-5s %9.3f' % (label, version, local * 1e3)
        for mode in modes:
            ka = med(results[(mode.name, True, label, version)])
            new = med(results[(mode.name, False, label, version)])
            line += ' %9.3f %9.3f %7.2f' % (ka * 1e3, new * 1e3, ka / local)
        print(line)
