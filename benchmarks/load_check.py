"""A load check, not a timed test: many clients against the all-in-one while
an operator flips hosts and a compute freezes and thaws; every request must
succeed and every acknowledged operator change must be in place at the end.

    python -m benchmarks.load_check [--clients 32] [--seconds 30] [--api-workers 2]
        [--server uwsgi|gunicorn]

nova-all-in-one runs as users run it (nova-api's default server, uWSGI, or
``--server gunicorn``; ``--api-workers`` workers, loopback) with 4
simulated hosts, heartbeats every second and ``service_down_time`` 5 s. For ``--seconds``:

* ``--clients`` threads send requests back to back, each on a new
  connection: admin
  and member ``servers/detail``, ``servers/{id}``, ``servers``,
  ``os-services`` at 2.16, and now and then a member's ``POST /servers``;
* an operator flips host-1 and host-2 through os-services (disable with a
  reason, enable, force-down, force-up), one change after another;
* host-3's nova-compute is frozen (SIGSTOP) past ``service_down_time``,
  then thawed (SIGCONT), again and again; never while it holds the SQLite
  file's write lock: frozen there it would hold every writer of the
  database for as long (operations.rst: after the busy timeout they get
  the documented 503), which is SQLite's single writer, not the API under
  load that this checks.

An error is any answer but the expected 2xx, or a failed connection. At the
end the operator's last acknowledged change per host must be what
os-services shows, and every acknowledged create must be listed. Exits 1
otherwise.
"""
import argparse
import collections
import http.client
import json
import random
import statistics
import sys
import threading
import time

from benchmarks.detail_bench import CpuLoad
from nova.tests.functional import fixtures as func

MAX_SECONDS = 600
DOWN_TIME = 5
FLIPPED = ('host-1', 'host-2')
FROZEN = 'host-3'
STATUSES = {'UP', 'DOWN', 'MAINTENANCE', 'UNKNOWN', ''}


def seconds_arg(text):
    value = float(text)
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError('between 0 and %d' % MAX_SECONDS)
    return value


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--clients', type=int, default=32)
    parser.add_argument('--seconds', type=seconds_arg, default=30.0)
    parser.add_argument('--api-workers', type=int, default=2)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--server', choices=['uwsgi', 'gunicorn'], default='uwsgi',
                        help="nova-api's [api] server (default uwsgi, nova-api's default)")
    return parser.parse_args(argv)


class Recorder:
    """Latencies and errors per kind of request, from every thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = collections.defaultdict(list)
        self.errors = collections.defaultdict(list)

    def add(self, kind, seconds, error=None):
        with self.lock:
            self.latencies[kind].append(seconds)
            if error:
                self.errors[kind].append(error)


def call(port, method, path, token, body=None, expect=200):
    """(seconds, parsed body, error or None) of one request on a new connection."""
    headers = {'X-Auth-Token': token, 'Accept': 'application/json',
               'OpenStack-API-Version': 'compute 2.16'}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers['Content-Type'] = 'application/json'
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        conn.close()
    except OSError as exc:
        return time.perf_counter() - started, None, '%s %s: %s' % (method, path, exc)
    elapsed = time.perf_counter() - started
    if resp.status != expect:
        return elapsed, None, '%s %s: %d %s' % (method, path, resp.status, raw[:200])
    return elapsed, json.loads(raw) if raw else None, None


class Clients:
    """``count`` threads sending a mix of reads and a few creates."""

    def __init__(self, port, count, recorder, seed, known_server):
        self.port, self.count, self.recorder = port, count, recorder
        self.seed = seed
        self.created = []
        self.created_lock = threading.Lock()
        self.known_server = known_server
        self.frozen_seen_down = 0       # os-services answers showing host-3 down
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True)
                        for i in range(count)]

    def start(self):
        for thread in self.threads:
            thread.start()

    def join(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(120)

    def _run(self, index):
        rng = random.Random(self.seed * 1000 + index)
        # one client in four also creates servers, now and then
        kinds = (['admin detail'] * 4 + ['member detail'] * 2 + ['admin show'] * 3
                 + ['os-services'] * 2 + ['member list']
                 + ['member create' if index % 4 == 0 else 'member list'])
        while not self.stop.is_set():
            kind = rng.choice(kinds)
            self.recorder.add(kind, *self._one(kind, index))

    def _one(self, kind, index):
        if kind == 'admin detail':
            took, body, error = call(self.port, 'GET',
                                     '/v2.1/servers/detail?all_tenants=1&limit=50', func.ADMIN)
            error = error or check_host_status(body['servers'])
        elif kind == 'member detail':
            took, body, error = call(self.port, 'GET', '/v2.1/servers/detail?limit=50',
                                     func.DEMO)
        elif kind == 'admin show':
            took, body, error = call(self.port, 'GET', '/v2.1/servers/%s' % self.known_server,
                                     func.ADMIN)
            error = error or check_host_status([body['server']])
        elif kind == 'os-services':
            took, body, error = call(self.port, 'GET', '/v2.1/os-services', func.ADMIN)
            if not error and any(s['host'] == FROZEN and s['state'] == 'down'
                                 for s in body['services']):
                self.frozen_seen_down += 1
        elif kind == 'member list':
            took, body, error = call(self.port, 'GET', '/v2.1/servers?limit=50', func.DEMO)
        else:
            took, body, error = call(self.port, 'POST', '/v2.1/servers', func.DEMO, body={
                'server': {'name': 'load-%d' % index, 'imageRef': func.IMAGE,
                           'flavorRef': '1'}}, expect=202)
            if not error:
                with self.created_lock:
                    self.created.append(body['server']['id'])
        return took, error


def check_host_status(servers):
    for server in servers:
        if server.get('host_status') not in STATUSES:
            return 'host_status %r' % server.get('host_status')
    return None


class Operator(threading.Thread):
    """Flips host-1 and host-2, one acknowledged change after another."""

    ACTIONS = ('disable-log-reason', 'enable', 'force-down', 'force-up')

    def __init__(self, port, recorder, seed):
        super().__init__(daemon=True)
        self.port, self.recorder = port, recorder
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        # what os-services must show: the last acknowledged change per host
        self.expected = {host: {'status': 'enabled', 'disabled_reason': None,
                                'forced_down': False} for host in FLIPPED}
        self.unacknowledged = []
        self.changes = 0

    def run(self):
        while not self.stop.is_set():
            host = self.rng.choice(FLIPPED)
            action = self.rng.choice(self.ACTIONS)
            self.changes += 1
            body = {'host': host, 'binary': 'nova-compute'}
            change = {}
            if action == 'disable-log-reason':
                body['disabled_reason'] = 'change %d' % self.changes
                change = {'status': 'disabled', 'disabled_reason': body['disabled_reason']}
            elif action == 'enable':
                change = {'status': 'enabled', 'disabled_reason': None}
            else:
                body['forced_down'] = action == 'force-down'
                change = {'forced_down': body['forced_down']}
                action = 'force-down'
            took, _, error = call(self.port, 'PUT', '/v2.1/os-services/' + action,
                                  func.ADMIN, body=body)
            self.recorder.add('operator PUT', took, error)
            if error:
                self.unacknowledged.append((host, change))
            else:
                self.expected[host].update(change)
            self.stop.wait(0.1)


class Freezer(threading.Thread):
    """Freezes host-3's compute past service_down_time, thaws it, again."""

    def __init__(self, nova):
        super().__init__(daemon=True)
        self.nova = nova
        self.stop = threading.Event()
        self.cycles = 0

    def run(self):
        while not self.stop.is_set():
            self.nova.freeze_outside_writes(FROZEN)
            self.stop.wait(DOWN_TIME + 2)
            self.nova.thaw(FROZEN)
            self.cycles += 1
            self.stop.wait(3)


def verify(nova, operator, clients):
    """The problems found at the end (an empty list when all is in place)."""
    problems = []
    _, body, error = call(nova.port, 'GET', '/v2.1/os-services', func.ADMIN)
    if error:
        return [error]
    shown = {s['host']: s for s in body['services']}
    for host, expected in operator.expected.items():
        actual = {key: shown[host][key] for key in expected}
        if actual != expected and not any(h == host for h, _ in operator.unacknowledged):
            problems.append('%s: os-services shows %s, last acknowledged %s'
                            % (host, actual, expected))
    _, body, error = call(nova.port, 'GET',
                          '/v2.1/servers/detail?all_tenants=1&limit=1000', func.ADMIN)
    if error:
        return problems + [error]
    listed = {s['id'] for s in body['servers']}
    missing = set(clients.created) - listed
    if missing:
        problems.append('%d acknowledged creates not listed: %s'
                        % (len(missing), sorted(missing)[:5]))
    return problems


def percentile(ordered, fraction):
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def table(recorder):
    lines = ['%-16s %9s %7s %9s %9s' % ('request', 'requests', 'errors', 'p50 ms', 'p99 ms')]
    everything = []
    for kind in sorted(recorder.latencies):
        ordered = sorted(recorder.latencies[kind])
        everything += ordered
        lines.append('%-16s %9d %7d %9.1f %9.1f' % (
            kind, len(ordered), len(recorder.errors[kind]),
            1000 * statistics.median(ordered), 1000 * percentile(ordered, 0.99)))
    everything.sort()
    lines.append('%-16s %9d %7d %9.1f %9.1f' % (
        'total', len(everything), sum(len(e) for e in recorder.errors.values()),
        1000 * statistics.median(everything), 1000 * percentile(everything, 0.99)))
    return lines


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    nova = func.AllInOne(hosts=4, report_interval=1, service_down_time=DOWN_TIME,
                         api_workers=args.api_workers,
                         extra_config='[api]\nserver = %s\n' % args.server)
    nova.validate_schemas = False     # the client's CPU goes to load, not to checks
    nova.setUp()
    try:
        known = nova.create_server(name='known')
        recorder = Recorder()
        clients = Clients(nova.port, args.clients, recorder, args.seed, known)
        operator = Operator(nova.port, recorder, args.seed)
        freezer = Freezer(nova)
        load = CpuLoad()
        load.start()
        started = time.monotonic()
        for worker in (clients, operator, freezer):
            worker.start()
        time.sleep(args.seconds)
        for worker in (operator, freezer):
            worker.stop.set()
        clients.join()
        operator.join(60)
        freezer.join(60)
        elapsed = time.monotonic() - started
        load_text = load.stop()
        problems = verify(nova, operator, clients)
    finally:
        nova.cleanUp()

    print('%d clients, %.0f s, %d API workers (%s); %d operator changes; %d freezes of %s '
          '(shown down in %d os-services answers); %d servers created' % (
              args.clients, elapsed, args.api_workers, args.server, operator.changes, freezer.cycles,
              FROZEN, clients.frozen_seen_down, len(clients.created)))
    print(load_text)
    for line in table(recorder):
        print('    ' + line)
    errors = [e for kind in recorder.errors.values() for e in kind]
    for error in errors[:10]:
        print('error: %s' % error)
    for problem in problems:
        print('not in place: %s' % problem)
    if not errors and not problems:
        print('0 errors; every acknowledged operator change (%d) and create (%d) in place'
              % (operator.changes - len(operator.unacknowledged), len(clients.created)))
    return 1 if errors or problems else 0


if __name__ == '__main__':
    sys.exit(main())
