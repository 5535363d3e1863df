"""What the API metrics cost: GET /servers/detail?limit=1000 on two nova-api
servers side by side, one with [api] metrics_port, one without.

    python -m benchmarks.metrics_cost [--rounds 300]

Seeds 1000 servers on 50 hosts (as detail_bench does) into one SQLite file,
serves it by two ``nova-all-in-one --hosts 0`` (the same command, workers
and config, the second with ``--metrics-port``, so its gunicorn workers run
the middleware in prometheus_client's multiprocess mode), and times each
case on both servers back to back, their order alternating by round. The
ratio is the median over rounds of metered/plain for such a pair. Then the
middleware alone, in this process (multiprocess mode too): microseconds per
request around an application that does nothing.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time
import urllib.request

from benchmarks import measure
from benchmarks import seed
from benchmarks import server as server_mod
from nova.metrics import multiprocess

CASES = (('detail?limit=1000', 'admin', '/v2.1/servers/detail?all_tenants=1&limit=1000'),
         ('detail?limit=1000', 'member', '/v2.1/servers/detail?limit=1000'))


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=300)
    parser.add_argument('--servers', type=int, default=1000)
    parser.add_argument('--hosts', type=int, default=50)
    parser.add_argument('--calls', type=int, default=200000,
                        help='calls of the middleware alone (default 200000)')
    return parser.parse_args(argv)


def paired(plain, metered, cases, rounds, warmup=5):
    """{case: ([plain seconds], [metered seconds])}, pairs measured together."""
    clients = (measure.Client(plain.port), measure.Client(metered.port))
    samples = {case: ([], []) for case in cases}
    for round_no in range(-warmup, rounds):
        for case in cases:
            label, role, path = case
            order = (0, 1) if round_no % 2 == 0 else (1, 0)
            for which in order:
                token = measure.ADMIN if role == 'admin' else measure.MEMBER
                elapsed, _ = clients[which].get(path, token, '2.16')
                if round_no >= 0:
                    samples[case][which].append(elapsed)
    for client in clients:
        client.close()
    return samples


def scraped_requests(port):
    with urllib.request.urlopen('http://127.0.0.1:%d/metrics' % port, timeout=10) as r:
        text = r.read().decode()
    return sum(float(line.rsplit(' ', 1)[1]) for line in text.splitlines()
               if line.startswith('nova_api_request_duration_seconds_count{')
               and 'route="/servers/detail"' in line)


def middleware_alone(calls):
    """Microseconds per call: (bare application, the same inside RequestMetrics)."""
    from nova.metrics import api_requests

    def application(environ, start_response):
        start_response('200 OK', [])
        return [b'']

    metered = api_requests.RequestMetrics(application, registry=None)
    environ = {'REQUEST_METHOD': 'GET', api_requests.ROUTE_KEY: '/servers/detail'}

    def start_response(status, headers, exc_info=None):
        return None

    timings = ([], [])
    for _ in range(5):
        for which, app in enumerate((application, metered)):
            started = time.perf_counter()
            for _ in range(calls // 5):
                app(environ, start_response)
            timings[which].append((time.perf_counter() - started) / (calls // 5) * 1e6)
    return min(timings[0]), min(timings[1])


def main(argv=None):
    args = parse(argv)
    multiprocess.enable()     # before prometheus_client is imported, as nova-api does
    print('== %d servers on %d hosts' % (args.servers, args.hosts), flush=True)
    with tempfile.TemporaryDirectory(prefix='nova-metrics-bench-') as data_dir, \
            server_mod.AllInOne(os.path.join(data_dir, 'plain')) as plain:
        seed.seed_small(args.servers, args.hosts)
        seed.analyze()
        database = os.path.join(data_dir, 'database.conf')
        with open(database, 'w') as f:
            f.write('[database]\nconnection = sqlite:///%s\n'
                    % os.path.join(plain.data_dir, 'nova.sqlite'))
        metrics_port = server_mod.free_port()
        with server_mod.AllInOne(os.path.join(data_dir, 'metered'), config_files=[database],
                                 metrics_port=metrics_port) as metered:
            samples = paired(plain, metered, CASES, args.rounds)
            counted = scraped_requests(metrics_port)
    expected = (args.rounds + 5) * len(CASES)
    print('%-20s %-6s %10s %10s %9s' % ('request', 'role', 'plain med', 'metrics med',
                                         'ratio*'))
    for case in CASES:
        label, role, _ = case
        without, with_metrics = samples[case]
        ratio = statistics.median(b / a for a, b in zip(without, with_metrics))
        print('%-20s %-6s %8.2fms %9.2fms %9.4f' % (
            label, role, statistics.median(without) * 1e3,
            statistics.median(with_metrics) * 1e3, ratio))
    print('* median over %d rounds of metrics/plain for a pair measured back to back'
          % args.rounds)
    print('the metered server counted %d detail requests (the benchmark sent %d)'
          % (counted, expected))
    bare, metered_us = middleware_alone(args.calls)
    print('middleware alone (multiprocess mode): %.2f us per request (bare app %.2f us, '
          'with RequestMetrics %.2f us)' % (metered_us - bare, bare, metered_us))
    return 0


if __name__ == '__main__':
    sys.exit(main())
