"""What an idle nova-compute's work poll costs: the CPU time of one
``ComputeManager.poll_once`` and the statements and transactions it sends,
in-process on a SQLite file.

    python -m benchmarks.poll_cost [--servers 1000] [--hosts 50]
        [--polls 500] [--rounds 5]

Seeds --servers servers on --hosts hosts as benchmarks.seed does (the
all-in-one's ``--hosts 50`` with 1000 servers by default), takes the first
host that is up with its servers' guests running on its hypervisor, and
polls it with nothing to do: --rounds rounds of --polls polls. Prints the
best and the median round's CPU (thread time) per poll, then one JSON line.
"""
import argparse
import json
import statistics
import time

import sqlalchemy as sa

from benchmarks import seed
from nova.compute import manager
from nova.db import engine
from nova.db.models import instances
from nova.tests import fixtures as nova_fixtures


def _idle_compute(servers, hosts):
    _, groups = seed.seed_small(servers=servers, hosts=hosts)
    host = groups['up'][0]
    with engine.reader() as conn:
        guests = conn.scalars(sa.select(instances.c.uuid).where(
            instances.c.host == host, instances.c.deleted == 0)).all()
    compute = manager.ComputeManager(host)
    compute.driver.guests.update({uuid: 1 for uuid in guests})
    return compute


def _sent_by_one_poll(compute):
    with nova_fixtures.transactions_sent() as transactions:
        compute.poll_once()
    sent = [text for statements in transactions for text in statements]
    return {'statements': len(sent), 'selects': nova_fixtures.selects(sent),
            'transactions': len(transactions)}


def _cpu_ms_per_poll(compute, polls, rounds):
    for _ in range(polls // 10):
        compute.poll_once()
    per_round = []
    for _ in range(rounds):
        started = time.thread_time()
        for _ in range(polls):
            compute.poll_once()
        per_round.append((time.thread_time() - started) / polls * 1000)
    return {'best_ms': round(min(per_round), 3),
            'median_ms': round(statistics.median(per_round), 3)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--servers', type=int, default=1000)
    parser.add_argument('--hosts', type=int, default=50)
    parser.add_argument('--polls', type=int, default=500)
    parser.add_argument('--rounds', type=int, default=5)
    args = parser.parse_args(argv)
    database = nova_fixtures.Database()
    database.setUp()
    try:
        compute = _idle_compute(args.servers, args.hosts)
        figures = {'host': compute.host, 'guests': len(compute.driver.guests)}
        figures.update(_cpu_ms_per_poll(compute, args.polls, args.rounds))
        figures.update(_sent_by_one_poll(compute))
    finally:
        database.cleanUp()
    print('%s, %d guests: %.3f ms CPU per poll (best round; median %.3f), '
          '%d statements (%d SELECTs) in %d transactions'
          % (figures['host'], figures['guests'], figures['best_ms'], figures['median_ms'],
             figures['statements'], figures['selects'], figures['transactions']))
    print(json.dumps(figures))


if __name__ == '__main__':
    main()
