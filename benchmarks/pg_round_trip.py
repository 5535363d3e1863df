"""CPU per PostgreSQL round trip with and without the hung-server watchdog
(nova/db/pg_watchdog.py), on a new database of the local server.

    python -m benchmarks.pg_round_trip [--statements 3000] [--rounds 20]

Each round runs ``SELECT 1`` ``--statements`` times on a plain psycopg2
connection, then on a watched one (bound 5 s, never reached); the process
CPU time per statement is reported as the median and the minimum over the
rounds (the minimum is the least disturbed by other load on the machine).
"""
import argparse
import statistics
import time

import psycopg2

import nova.conf
from nova.db import pg_watchdog
from nova.db import waits
from nova.tests.functional.db import backends

CONF = nova.conf.CONF


def cpu_per_statement(url, factory, statements):
    conn = psycopg2.connect(connection_factory=factory, host=url.host, port=url.port or 5432,
                            user=url.username, password=url.password, dbname=url.database)
    try:
        cursor = conn.cursor()
        started = time.process_time()
        for _ in range(statements):
            cursor.execute('SELECT 1')
            cursor.fetchall()
        return (time.process_time() - started) / statements
    finally:
        conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--statements', type=int, default=3000)
    parser.add_argument('--rounds', type=int, default=20)
    args = parser.parse_args()
    CONF([], project='nova')
    waits.enable()
    database = backends.Database('postgresql')
    try:
        samples = {'plain': [], 'watched': []}
        for _ in range(args.rounds):
            samples['plain'].append(cpu_per_statement(database.url, None, args.statements))
            samples['watched'].append(
                cpu_per_statement(database.url, pg_watchdog.Connection, args.statements))
    finally:
        database.drop()
    for name, values in samples.items():
        print('%-8s CPU per round trip: median %.1f us, min %.1f us'
              % (name, 1e6 * statistics.median(values), 1e6 * min(values)))


if __name__ == '__main__':
    main()
