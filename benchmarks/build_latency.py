"""How long a new server takes to go BUILD -> ACTIVE on an idle all-in-one
(3 hosts): the compute's work poll plus the fake driver's spawn.

    python -m benchmarks.build_latency [--servers N]
"""
import argparse
import statistics
import time

from nova.tests.functional import fixtures as func


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--servers', type=int, default=8)
    args = parser.parse_args()
    nova = func.AllInOne(hosts=3)
    nova.setUp()
    try:
        seconds = []
        for index in range(args.servers):
            start = time.monotonic()
            uuid = nova.create_server(name='latency-%d' % index, wait_status=None)
            while nova.show(uuid).json['server']['status'] != 'ACTIVE':
                time.sleep(0.02)
            seconds.append(time.monotonic() - start)
            time.sleep(0.3)   # idle between creates
        print('BUILD -> ACTIVE over %d servers: min %.2f s, median %.2f s, max %.2f s'
              % (len(seconds), min(seconds), statistics.median(seconds), max(seconds)))
    finally:
        nova.cleanUp()


if __name__ == '__main__':
    main()
