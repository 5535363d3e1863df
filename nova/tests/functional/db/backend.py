"""The real nova-all-in-one on MariaDB or PostgreSQL: a fresh database per
test, optionally reached through a TcpProxy the test can cut, plus a direct
look at the database (the server's clock, the rows, its connections) and
extra processes (a second nova-api, another nova-compute) on the same
configuration."""
import os
import subprocess
import sys

import sqlalchemy as sa

from nova.db import models
from nova.db.dbtime import db_now
from nova.tests.functional import fixtures as func
from nova.tests.functional.db import tcp_proxy
from nova.tests.functional.db import backends


def start(test, backend, through_proxy=False, extra_config='', **all_in_one):
    """(AllInOne, Peek, TcpProxy or None) for ``test`` on ``backend``."""
    database = backends.create_or_skip(test, backend)
    proxy = None
    connection = database.connection
    if through_proxy:
        proxy = test.useFixture(tcp_proxy.TcpProxy(database.server_address))
        connection = database.via('127.0.0.1', proxy.port)
    config = '[database]\nconnection = %s\n%s' % (connection, extra_config)
    nova = test.useFixture(func.AllInOne(extra_config=config, **all_in_one))
    peek = Peek(database)
    test.addCleanup(peek.close)
    return nova, peek, proxy


class Peek:
    """Reads the database directly, on a connection of its own."""

    def __init__(self, database):
        self.database = database
        self.engine = sa.create_engine(database.url, poolclass=sa.pool.NullPool)

    def close(self):
        self.engine.dispose()

    def service(self, host):
        """The host's nova-compute row, with the server's time as db_now."""
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(models.services, db_now().label('db_now'))
                .where(models.services.c.host == host,
                       models.services.c.deleted == 0)).mappings().one()

    def now(self):
        with self.engine.connect() as conn:
            return conn.scalar(sa.select(db_now()))

    def kill_connections(self):
        """End every other session on this database, server-side, as a
        restarting server or a failover would; returns how many."""
        with self.engine.connect() as conn:
            if self.engine.dialect.name == 'mysql':
                ids = conn.execute(sa.text(
                    'SELECT id FROM information_schema.processlist '
                    'WHERE db = :db AND id <> CONNECTION_ID()'),
                    {'db': self.database.name}).scalars().all()
                for thread_id in ids:
                    try:
                        conn.execute(sa.text('KILL CONNECTION %d' % thread_id))
                    except sa.exc.OperationalError:
                        pass  # it ended by itself meanwhile
                return len(ids)
            return len(conn.execute(sa.text(
                'SELECT pg_terminate_backend(pid) FROM pg_stat_activity '
                'WHERE datname = :db AND pid <> pg_backend_pid()'),
                {'db': self.database.name}).all())


# a process beside the all-in-one serves no metrics: their ports are taken
BESIDE = '[api]\nmetrics_port = 0\n\n[host_status_watcher]\nmetrics_port = 0\n'


def config_files(nova, name, text):
    """The all-in-one's --config-file arguments, plus one with ``text``."""
    beside = os.path.join(nova.data_dir, 'beside.conf')
    with open(beside, 'w') as f:
        f.write(BESIDE)
    path = os.path.join(nova.data_dir, name)
    with open(path, 'w') as f:
        f.write(text)
    files = [os.path.join(nova.data_dir, n) for n in ('nova.conf', 'extra.conf', 'flags.conf')]
    return [arg for p in files + [beside, path] for arg in ('--config-file', p)]


def spawn(test, nova, name, command, env=None):
    """Run ``python -m <command...>`` beside the all-in-one, logging to
    <data_dir>/<name>.log; stopped at cleanup. Returns (process, log path)."""
    log_path = os.path.join(nova.data_dir, name + '.log')
    log = open(log_path, 'wb')
    process = subprocess.Popen([sys.executable, '-m'] + command, stdout=log,
                               stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def stop():
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()
    test.addCleanup(stop)
    return process, log_path
