"""Randomized fault-injection soak: seeded histories (nova/tests/functional/
chaos.py) against one all-in-one, until ``--seconds`` have passed.

    python -m benchmarks.chaos [--seeds N] [--seconds S] [--steps K]
        [--first-seed F] [--backend sqlite|mysql|postgresql]

Prints one line per history (seed, steps, faults, result) and a last line
with histories run, faults injected and violations of I1-I5 found. A
violation does not stop the soak: the all-in-one's logs are kept (the
path is printed) and the next history starts on a fresh all-in-one.
"""
import argparse
import json
import os
import shutil
import tempfile
import time

import fixtures

from nova.tests.functional import chaos
from nova.tests.functional import fixtures as func
from nova.tests.functional.db import backend


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--seeds', type=int, default=10, help='histories at most')
    parser.add_argument('--seconds', type=float, default=600, help='stop starting new ones after')
    parser.add_argument('--steps', type=int, default=40, help='steps per history')
    parser.add_argument('--first-seed', type=int, default=1000)
    parser.add_argument('--backend', choices=('sqlite', 'mysql', 'postgresql'),
                        default='sqlite')
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.seconds
    runs = faults = violations = 0
    seed = args.first_seed
    while runs < args.seeds and time.monotonic() < deadline:
        with fixtures.Fixture() as holder:
            db_url = None
            if args.backend == 'sqlite':
                nova = holder.useFixture(func.AllInOne(**chaos.ALL_IN_ONE))
            else:
                nova, peek, _ = backend.start(holder, args.backend, **chaos.ALL_IN_ONE)
                db_url = peek.database.connection
            while runs < args.seeds and time.monotonic() < deadline:
                history = chaos.History(nova, seed, args.steps, db_url=db_url)
                try:
                    history.run()
                    result = 'ok'
                except chaos.Violation as exc:
                    result = 'VIOLATION %s' % exc
                finally:
                    history.stop()
                runs, faults, seed = runs + 1, faults + history.faults, seed + 1
                print('seed %d: %d steps, %d faults: %s' % (
                    history.seed, args.steps, history.faults, result), flush=True)
                if result != 'ok':
                    violations += 1
                    kept = tempfile.mkdtemp(prefix='chaos-seed%d-' % history.seed)
                    shutil.copytree(os.path.join(nova.data_dir, 'logs'),
                                    os.path.join(kept, 'logs'))
                    print('  logs kept in %s' % kept, flush=True)
                    break
    print(json.dumps({'histories': runs, 'faults': faults, 'violations': violations}))


if __name__ == '__main__':
    main()
