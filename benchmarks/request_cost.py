"""Where one request's time goes: in-process against each serving mode
(without --other, benchmarks/serving_cost.py), or this checkout against
another, side by side.

    python -m benchmarks.request_cost [--rounds 12] [--modes uwsgi,gthread,sync]
    git worktree add --detach /tmp/before-9 7e940c6
    python -m benchmarks.request_cost --other /tmp/before-9 [--profile]

Each checkout seeds its own database (1000 servers on 50 hosts, as
detail_bench) and serves it with its own code under ``nova-all-in-one``; a
child process per checkout runs with that checkout first on
``PYTHONPATH``. This checkout also serves the same database with
gunicorn's ``sync`` worker (one thread per worker, no long polls), so the
worker class is measured apart from the code. The requests (show and
``detail?limit=10`` at 2.16, admin and member; ``detail?limit=1000`` at
2.16 and 2.73, admin) go to every server in
turn, in batches whose order is shuffled by round, over a kept-alive
connection, each batch timed in the serving processes' CPU time (user and
system: gunicorn, the kernel's socket work and the app); then each child
times the same requests on its WSGI app called directly (``load_app()``:
the in-process cost) in its thread's CPU time, in batches taking turns.
CPU time, not wall time: a machine shared with other jobs stretches the
second far more than the first.
``--profile`` adds each child's cProfile of the in-process requests,
``--py-spy S`` py-spy's samples of each all-in-one's API processes,
``--cold N`` each child's in-process wall time of a request made after
64 MiB went through the caches (N of each, the median): the cost of a
request that follows an idle gap or another process's work.
"""
import argparse
import collections
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading

import psutil

from benchmarks import measure

_BESIDE = os.path.join(os.path.dirname(sys.executable), 'py-spy')
PY_SPY = _BESIDE if os.path.exists(_BESIDE) else 'py-spy'
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Runs in each checkout's child: only what both checkouts have
# (benchmarks.server.AllInOne, benchmarks.seed, wsgi_app.load_app).
CHILD = r'''
import cProfile, io, json, os, pstats, subprocess, sys, time
import sqlalchemy as sa
import webob
from benchmarks import seed, server
from nova.api.openstack import wsgi_app
from nova.db import engine
from nova.db.models import instances

data_dir, sync = sys.argv[1], sys.argv[2] == 'sync'
with server.AllInOne(data_dir) as api:
    seed.seed_small(1000, 50)
    seed.analyze()
    with engine.reader() as conn:
        show = conn.scalar(sa.select(instances.c.uuid).where(
            instances.c.host.is_not(None)).order_by(instances.c.id).limit(1))
    ports = {'all-in-one': api.port}
    gunicorn = None
    if sync:
        port = server.free_port()
        env = dict(os.environ, NOVA_CONFIG_FILES=','.join(api.config_args()[1::2]))
        gunicorn = subprocess.Popen(
            [sys.executable, '-m', 'gunicorn', '-k', 'sync', '-w', '1', '-b',
             '127.0.0.1:%d' % port, 'nova.api.openstack.wsgi_app:init_application()'],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ports['sync'] = port
    app = wsgi_app.load_app()
    # the engine again, as a worker builds it after load_app (serve_requests'
    # settings; the seeding built it before)
    engine.reset()
    # and the collector tuned as in a worker: untuned, a long page's
    # allocations pay for a dozen collections that no worker runs
    wsgi_app.serve()
    print(json.dumps({'ports': ports, 'show': show}), flush=True)

    def call(path, token, version):
        req = webob.Request.blank(path, headers={
            'X-Auth-Token': token, 'Accept': 'application/json',
            'OpenStack-API-Version': 'compute %s' % version})
        resp = req.get_response(app)
        assert resp.status_int == 200, (path, resp.status)

    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd['op'] == 'time':
            start = time.thread_time()
            for _ in range(cmd['n']):
                call(*cmd['request'])
            print(json.dumps((time.thread_time() - start) / cmd['n']), flush=True)
        elif cmd['op'] == 'cold':
            # each request after 64 MiB went through every cache level, as
            # after an idle gap or another process's work (Nova's, in
            # side_by_side): its wall time, in ms
            evict, walls = bytearray(64 << 20), []
            for _ in range(cmd['n']):
                bytes(evict)
                start = time.perf_counter()
                call(*cmd['request'])
                walls.append((time.perf_counter() - start) * 1e3)
            print(json.dumps(sorted(walls)[len(walls) // 2]), flush=True)
        elif cmd['op'] == 'profile':
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(cmd['n']):
                call(*cmd['request'])
            profile.disable()
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats('tottime').print_stats(cmd['top'])
            print(json.dumps(out.getvalue()), flush=True)
        else:
            break
    if gunicorn is not None:
        gunicorn.terminate()
        gunicorn.wait(10)
'''


class Checkout:
    """One checkout's child: its servers, its in-process app."""

    def __init__(self, name, tree, data_dir, sync=False):
        self.name, self.tree = name, tree
        env = dict(os.environ, PYTHONPATH=tree)
        self.process = subprocess.Popen(
            [sys.executable, '-c', CHILD, data_dir, 'sync' if sync else 'gthread'],
            cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self.process.stdout.readline())
        self.ports, self.show = hello['ports'], hello['show']

    def ask(self, **cmd):
        self.process.stdin.write(json.dumps(cmd) + '\n')
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        try:
            self.process.stdin.write(json.dumps({'op': 'stop'}) + '\n')
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        self.process.wait(60)


def requests(checkout):
    """(label, path, token, version) of the timed requests."""
    return [('show admin', '/v2.1/servers/%s' % checkout.show, measure.ADMIN, '2.16'),
            ('show member', '/v2.1/servers/%s' % checkout.show, measure.MEMBER, '2.16'),
            ('detail?limit=10 admin', '/v2.1/servers/detail?all_tenants=1&limit=10',
             measure.ADMIN, '2.16'),
            ('detail?limit=10 member', '/v2.1/servers/detail?limit=10', measure.MEMBER,
             '2.16'),
            ('detail?limit=1000 admin', '/v2.1/servers/detail?all_tenants=1&limit=1000',
             measure.ADMIN, '2.16'),
            ('detail?limit=1000 2.73', '/v2.1/servers/detail?all_tenants=1&limit=1000',
             measure.ADMIN, '2.73')]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--other',
                        help='the other checkout (e.g. a git worktree of an older commit); '
                             'without it, in-process against each serving mode')
    parser.add_argument('--modes', default='uwsgi,gthread,sync',
                        help='serving modes, without --other (default uwsgi,gthread,sync)')
    parser.add_argument('--rounds', type=int)
    parser.add_argument('--batch', type=int, default=20,
                        help='requests per turn of a server or an app (default 20)')
    parser.add_argument('--profile', action='store_true')
    parser.add_argument('--cold', type=int, metavar='N',
                        help='also time N in-process requests of each kind made with '
                             'cold caches, in each checkout')
    parser.add_argument('--py-spy', type=int, metavar='SECONDS',
                        help="also sample each all-in-one's API processes with py-spy "
                             '(pip install py-spy) this long under show requests')
    args = parser.parse_args(argv)
    if args.other is None:
        from benchmarks import serving_cost
        args.rounds = args.rounds or 12
        return serving_cost.run(args)
    args.rounds = args.rounds or 300
    with tempfile.TemporaryDirectory(prefix='nova-cost-') as data_dir:
        this = Checkout('this', HERE, os.path.join(data_dir, 'this'), sync=True)
        other = Checkout('other', os.path.abspath(args.other), os.path.join(data_dir, 'other'))
        try:
            report(args, this, other)
            if args.py_spy:
                for checkout in (this, other):
                    spy(checkout, args.py_spy)
        finally:
            this.close()
            other.close()
    return 0


def serving(port):
    """gunicorn's master listening on ``port`` and all its workers."""
    found = {}
    for conn in psutil.net_connections('tcp'):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
            process = psutil.Process(conn.pid)
            # a worker (forked: the same command line) shares its master's socket
            parent = process.parent()
            master = parent if parent and parent.cmdline() == process.cmdline() else process
            for member in [master] + master.children():
                found[member.pid] = member
    return list(found.values())


def cpu_seconds(processes):
    total = 0.0
    for process in processes:
        times = process.cpu_times()
        total += times.user + times.system
    return total


def report(args, this, other):
    """Per request: the serving processes' CPU time over HTTP (user and
    system, gunicorn, the kernel's socket work and the app: what a busy
    machine stretches least) and the in-process CPU time of the app called
    directly; the client's wall time for reference."""
    servers = [('this, default', this, this.ports['all-in-one']),
               ('this, sync', this, this.ports['sync']),
               ('other', other, other.ports['all-in-one'])]
    clients = {name: measure.Client(port) for name, _, port in servers}
    processes = {name: serving(port) for name, _, port in servers}
    http_cpu, http_wall = {}, {}
    rng = random.Random(1)
    for round_no in range(-1, max(1, args.rounds // args.batch)):
        order = list(servers)
        rng.shuffle(order)
        for name, checkout, _ in order:
            for label, path, token, version in requests(checkout):
                before = cpu_seconds(processes[name])
                walls = [clients[name].get(path, token, version)[0]
                         for _ in range(args.batch)]
                used = (cpu_seconds(processes[name]) - before) / args.batch
                if round_no >= 0:
                    http_cpu.setdefault((name, label), []).append(used)
                    http_wall.setdefault((name, label), []).extend(walls)
    for client in clients.values():
        client.close()
    direct = {}
    for turn in range(max(1, args.rounds // args.batch)):
        for checkout in (this, other) if turn % 2 == 0 else (other, this):
            for label, path, token, version in requests(checkout):
                direct.setdefault((checkout.name, label), []).append(checkout.ask(
                    op='time', request=[path, token, version], n=args.batch))

    med = statistics.median
    print('CPU ms per request, medians of %d batches of %d; wall: the client\'s median'
          % (max(1, args.rounds // args.batch), args.batch))
    head = '%-24s %9s %9s %9s %9s %9s %9s %9s %9s %9s' % (
        'request', 'http this', 'this sync', 'http othr', 'in-p this', 'in-p othr',
        'this/othr', 'http/in-p', 'wall this', 'wall othr')
    print(head)
    print('-' * len(head))
    for label, *_ in requests(this):
        h_this = med(http_cpu[('this, default', label)])
        h_sync = med(http_cpu[('this, sync', label)])
        h_other = med(http_cpu[('other', label)])
        d_this = med(direct[('this', label)])
        d_other = med(direct[('other', label)])
        print('%-24s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f' % (
            label, h_this * 1e3, h_sync * 1e3, h_other * 1e3, d_this * 1e3, d_other * 1e3,
            h_this / h_other, h_this / d_this, med(http_wall[('this, default', label)]) * 1e3,
            med(http_wall[('other', label)]) * 1e3))
    print("this/othr: this checkout's HTTP CPU (its all-in-one as deployed: uWSGI) over the other's; "
          "http/in-p: this checkout's HTTP CPU over its in-process CPU")
    if args.cold:
        cold = {}
        for turn in range(10):
            for checkout in (this, other) if turn % 2 == 0 else (other, this):
                for label, path, token, version in requests(checkout):
                    cold.setdefault((checkout.name, label), []).append(checkout.ask(
                        op='cold', request=[path, token, version], n=max(1, args.cold // 10)))
        print('\nin-process wall ms with cold caches (median of 10 turns of %d)'
              % max(1, args.cold // 10))
        for label, *_ in requests(this):
            c_this, c_other = med(cold[('this', label)]), med(cold[('other', label)])
            print('%-24s this %9.3f  other %9.3f  this/othr %6.3f' % (
                label, c_this, c_other, c_this / c_other))
    if args.profile:
        for checkout in (this, other):
            for label, path, token, version in requests(checkout)[::2]:
                print('\n== cProfile, %s checkout, %s, 500 in-process requests' % (
                    checkout.name, label))
                print(checkout.ask(op='profile', request=[path, token, version], n=500,
                                   top=25))


def spy(checkout, seconds, top=12):
    """py-spy's busiest frames (own time) in each API process of the
    checkout's all-in-one while a client sends ``show admin`` requests."""
    label, path, token, version = requests(checkout)[0]
    port = checkout.ports['all-in-one']
    client = measure.Client(port)
    stop = threading.Event()

    def load():
        while not stop.is_set():
            client.get(path, token, version)
    thread = threading.Thread(target=load)
    thread.start()
    try:
        for process in serving(port):
            with tempfile.NamedTemporaryFile(suffix='.txt') as out:
                subprocess.run([PY_SPY, 'record', '--nonblocking', '-r', '200', '-d',
                                str(int(seconds)), '-f', 'raw', '-o', out.name,
                                '--pid', str(process.pid)], capture_output=True)
                own, total = collections.Counter(), 0
                for line in open(out.name):
                    stack, _, count = line.rstrip().rpartition(' ')
                    own[stack.split(';')[-1]] += int(count)
                    total += int(count)
            if total < 100:
                continue            # an idle process (the master, a worker not chosen)
            print('\n== py-spy, %s checkout, process %d, %s: %d samples, own time'
                  % (checkout.name, process.pid, label, total))
            for frame, count in own.most_common(top):
                print('  %5.1f%%  %s' % (100.0 * count / total, frame))
    finally:
        stop.set()
        thread.join()
        client.close()


if __name__ == '__main__':
    raise SystemExit(main())
