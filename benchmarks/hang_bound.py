"""How long the API takes to answer 503 when its database hangs (accepts
connections, answers nothing), on MariaDB and PostgreSQL, with the default
[database] response_timeout unless told otherwise.

    python -m benchmarks.hang_bound [--backend mysql|postgresql] [--response-timeout S]

nova-all-in-one (1 simulated host) reaches the database through a TCP proxy
that is then hung; each request below is timed from sending it to its 503,
in this order (the first finds a pooled connection, the others connect
anew). Then the proxy resumes, and the time to the first 200 and to the
compute's next heartbeat is printed: nothing is restarted.
"""
import argparse
import http.client
import json
import time

from nova.tests.functional import fixtures as func
from nova.tests.functional.db import backend as backend_mod
from nova.tests.functional.db import tcp_proxy
from nova.tests.functional.db import backends

REQUESTS = [
    ('GET', '/v2.1/servers/{uuid}', None),
    ('GET', '/v2.1/servers/detail', None),
    ('GET', '/v2.1/os-services', None),
    ('POST', '/v2.1/servers', {'server': {'name': 'x', 'imageRef': func.IMAGE,
                                          'flavorRef': '1'}}),
    ('PUT', '/v2.1/os-services/disable', {'host': 'host-1', 'binary': 'nova-compute'}),
]


def timed(port, method, path, body):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=300)
    headers = {'X-Auth-Token': func.ADMIN, 'Content-Type': 'application/json',
               'OpenStack-API-Version': 'compute 2.16'}
    started = time.monotonic()
    conn.request(method, path, body=json.dumps(body) if body else None, headers=headers)
    resp = conn.getresponse()
    resp.read()
    conn.close()
    return resp.status, time.monotonic() - started


def measure(backend, response_timeout):
    database = backends.Database(backend)
    proxy = tcp_proxy.TcpProxy(database.server_address)
    proxy.setUp()
    config = '[database]\nconnection = %s\n' % database.via('127.0.0.1', proxy.port)
    if response_timeout is not None:
        config += 'response_timeout = %s\n' % response_timeout
    nova = func.AllInOne(hosts=1, extra_config=config)
    nova.setUp()
    peek = backend_mod.Peek(database)
    try:
        uuid = nova.create_server()
        proxy.hang()
        rows = []
        for method, path, body in REQUESTS:
            path = path.format(uuid=uuid)
            status, took = timed(nova.port, method, path, body)
            rows.append(('%s %s' % (method, path.replace(uuid, '{id}')), status, took))
        time.sleep(2)
        count = peek.service('host-1')['report_count']
        proxy.resume()
        started = time.monotonic()
        while timed(nova.port, 'GET', '/v2.1/os-services', None)[0] != 200:
            time.sleep(0.1)
        back = time.monotonic() - started
        while peek.service('host-1')['report_count'] <= count:
            time.sleep(0.1)
        heartbeat = time.monotonic() - started
    finally:
        nova.cleanUp()
        proxy.cleanUp()
        peek.close()
        database.drop()
    return rows, back, heartbeat


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--backend', choices=('mysql', 'postgresql'), action='append')
    parser.add_argument('--response-timeout', type=float)
    args = parser.parse_args()
    bound = args.response_timeout or 5.0
    for backend in args.backend or ('mysql', 'postgresql'):
        rows, back, heartbeat = measure(backend, args.response_timeout)
        print('%s, response_timeout %g s (hung database)' % (backends.NAMES[backend], bound))
        print('    %-34s %6s %9s %8s' % ('request', 'status', 'seconds', 'bounds'))
        for name, status, took in rows:
            print('    %-34s %6d %9.2f %8.2f' % (name, status, took, took / bound))
        print('    resumed: first 200 after %.2f s, next heartbeat after %.2f s'
              % (back, heartbeat))


if __name__ == '__main__':
    main()
