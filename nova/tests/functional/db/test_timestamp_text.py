"""The database formats a server's times as the API shows them, on every
backend, from what each keeps: microseconds, none, a missing time."""
import datetime

import sqlalchemy as sa

from nova.db import engine
from nova.db import instances as instance_db
from nova.db.models import instances
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

CREATED = datetime.datetime(2026, 12, 3, 7, 5, 9, 123456)
LAUNCHED = datetime.datetime(2026, 12, 3, 7, 5, 10)   # no microseconds


class _TimestampTextTests:

    def _server(self, **values):
        uuid = nova_fixtures.add_server('vm', host='h1', vm_state='error')
        with engine.writer() as conn:
            conn.execute(sa.update(instances).where(instances.c.uuid == uuid).values(
                created_at=CREATED, launched_at=LAUNCHED, **values))
        return uuid

    def _read(self, uuid, columns=None):
        with engine.reader() as conn:
            if columns is None:
                return instance_db.instance_get(conn, uuid)
            return instance_db.instance_list(conn, {}, ['id'], ['asc'], 10, columns=columns)[0]

    def test_seconds_and_microseconds_as_nova_shows_them(self):
        uuid = self._server(updated_at=datetime.datetime(2026, 12, 3, 7, 6, 0, 999999),
                            terminated_at=None)
        instance_db.instance_fault_create(uuid, 500, 'boom')
        row = self._read(uuid)
        self.assertEqual('2026-12-03T07:05:09Z', row['created_iso'])
        self.assertEqual('2026-12-03T07:06:00Z', row['updated_iso'])     # not rounded up
        self.assertEqual('2026-12-03T07:05:10.000000', row['launched_iso'])
        self.assertIsNone(row['terminated_iso'])
        # the fault's time is the database's clock at its creation
        fault_time = datetime.datetime.strptime(row['fault_created_iso'], '%Y-%m-%dT%H:%M:%SZ')
        now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        self.assertLess(abs(fault_time - now), datetime.timedelta(seconds=5))

    def test_a_server_never_updated_shows_its_creation_as_updated(self):
        uuid = self._server(updated_at=None, terminated_at=CREATED)
        row = self._read(uuid)
        self.assertEqual('2026-12-03T07:05:09Z', row['updated_iso'])
        self.assertEqual('2026-12-03T07:05:09.123456', row['terminated_iso'])

    def test_a_page_reads_only_the_columns_asked_for(self):
        uuid = self._server()
        row = self._read(uuid, columns=('uuid', 'created_iso'))
        self.assertEqual(uuid, row['uuid'])
        self.assertEqual('2026-12-03T07:05:09Z', row['created_iso'])
        self.assertNotIn('display_name', row)
        self.assertNotIn('launched_iso', row)


class TimestampTextSQLiteTest(_TimestampTextTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class TimestampTextMySQLTest(_TimestampTextTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class TimestampTextPostgreSQLTest(_TimestampTextTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
