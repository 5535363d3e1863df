"""File SQLite keeps its connections in a pool, and that changes nothing
but speed: listeners still apply and every transaction reads fresh data."""
import os
import sqlite3

import fixtures
import sqlalchemy as sa
import testtools
from oslo_config import fixture as config_fixture

import nova.conf
from nova.db import api as db
from nova.db import engine
from nova.db import migration

CONF = nova.conf.CONF


class SQLitePoolTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.path = os.path.join(self.useFixture(fixtures.TempDir()).path, 'nova.sqlite')
        self.useFixture(config_fixture.Config(CONF)).config(
            connection='sqlite:///' + self.path, group='database')
        engine.reset()
        self.addCleanup(engine.reset)
        migration.db_sync()
        self.statements = []
        sa.event.listen(engine.get_engine(), 'before_cursor_execute',
                        lambda conn, cur, statement, *a: self.statements.append(statement))

    def _dbapi_connection(self):
        with engine.reader() as conn:
            return conn.connection.dbapi_connection

    def test_connections_are_reused(self):
        self.assertIsInstance(engine.get_engine().pool, sa.pool.QueuePool)
        self.assertIs(self._dbapi_connection(), self._dbapi_connection())

    def test_listeners_still_apply_to_pooled_connections(self):
        for _ in range(2):
            self.statements = []
            with engine.reader() as conn:
                self.assertEqual(1, conn.scalar(sa.text("SELECT 'abc' REGEXP 'b'")))
                self.assertEqual(engine.SQLITE_BUSY_TIMEOUT_MS,
                                 conn.scalar(sa.text('PRAGMA busy_timeout')))
                self.assertEqual('wal', conn.scalar(sa.text('PRAGMA journal_mode')))
            # oslo.db's own BEGIN, once per transaction, pooled or not
            self.assertEqual('BEGIN', self.statements[0])

    def test_each_transaction_reads_the_database_as_it_is_now(self):
        db.service_register('host-1', db.COMPUTE_BINARY)
        pooled = self._dbapi_connection()
        other = sqlite3.connect(self.path)
        other.execute("UPDATE services SET disabled = 1 WHERE host = 'host-1'")
        other.commit()
        other.close()
        self.assertIs(pooled, self._dbapi_connection())
        self.assertTrue(db.service_list(host='host-1')[0]['disabled'])
