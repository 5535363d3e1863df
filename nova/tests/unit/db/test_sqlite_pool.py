"""File SQLite keeps its connections in a pool, and that changes nothing
but speed: listeners still apply and every transaction reads fresh data."""
import sqlite3

import sqlalchemy as sa
import testtools

from nova.db import services as service_db
from nova.db import engine
from nova.tests import fixtures as nova_fixtures


class SQLitePoolTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        database = self.useFixture(nova_fixtures.Database())
        self.path = database.connection[len('sqlite:///'):]
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
                self.assertEqual(engine.SQLITE_BUSY_TIMEOUT * 1000,
                                 conn.scalar(sa.text('PRAGMA busy_timeout')))
                self.assertEqual('wal', conn.scalar(sa.text('PRAGMA journal_mode')))
            # oslo.db's own BEGIN, once per transaction, pooled or not
            self.assertEqual('BEGIN', self.statements[0])

    def test_each_transaction_reads_the_database_as_it_is_now(self):
        service_db.service_register('host-1', service_db.COMPUTE_BINARY)
        pooled = self._dbapi_connection()
        other = sqlite3.connect(self.path)
        other.execute("UPDATE services SET disabled = 1 WHERE host = 'host-1'")
        other.commit()
        other.close()
        self.assertIs(pooled, self._dbapi_connection())
        self.assertTrue(service_db.service_list(host='host-1')[0]['disabled'])
