"""One clock on every backend: the database server's UTC time, to the
sub-second, is what heartbeats write and what liveness is judged against."""
import datetime
import time

import sqlalchemy as sa

import nova.conf
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.db import models
from nova.db.dbtime import db_now
from nova import servicegroup
from nova.tests.functional.db import backends

CONF = nova.conf.CONF
SECOND = datetime.timedelta(seconds=1)
MARGIN = datetime.timedelta(seconds=0.3)


def _utc_now():
    return datetime.datetime.fromtimestamp(time.time(), datetime.timezone.utc).replace(tzinfo=None)


class _ClockTests:
    # The session time zone each dialect is put in to prove db_now ignores
    # it; None where the dialect has none (SQLite's 'now' is always UTC).
    FOREIGN_ZONE = None

    def test_db_now_has_sub_second_resolution(self):
        first = dbtime.db_time()
        time.sleep(0.05)
        second = dbtime.db_time()
        self.assertGreater(second, first)
        self.assertLess(second - first, SECOND)

    def test_db_now_is_utc_whatever_the_session_time_zone(self):
        with engine.writer() as conn:
            if self.FOREIGN_ZONE:
                conn.execute(sa.text(self.FOREIGN_ZONE))
                # the trap is real: the session's idea of "now" moved
                local = conn.scalar(sa.text('SELECT CAST(CURRENT_TIMESTAMP AS CHAR(26))'
                                            if self.BACKEND == 'mysql' else
                                            'SELECT CAST(LOCALTIMESTAMP AS TEXT)'))
                local = datetime.datetime.fromisoformat(local[:19])
                self.assertGreater(abs(local - _utc_now()), datetime.timedelta(hours=4))
            value = conn.scalar(sa.select(db_now()))
        # the server runs on this machine: its UTC clock is ours
        self.assertLess(abs(value - _utc_now()), 2 * SECOND)

    def test_db_now_moves_inside_one_transaction(self):
        # PostgreSQL's now()/CURRENT_TIMESTAMP is the transaction's start: a
        # heartbeat in a long transaction would be written in the past.
        with engine.writer() as conn:
            first = conn.scalar(sa.select(db_now()))
            time.sleep(0.2)
            second = conn.scalar(sa.select(db_now()))
        self.assertGreaterEqual(second - first, datetime.timedelta(seconds=0.15))

    def test_heartbeat_writes_the_database_time(self):
        service = service_db.service_register('clock-host', service_db.COMPUTE_BINARY)
        before = dbtime.db_time()
        self.assertTrue(service_db.service_heartbeat(service['id']))
        after = dbtime.db_time()
        row = service_db.service_list(host='clock-host')[0]
        self.assertLessEqual(before, row['last_seen_up'])
        self.assertLessEqual(row['last_seen_up'], after)
        # PostgreSQL's clock_timestamp() is read per call, even in one
        # statement: the two columns may differ by microseconds there.
        self.assertLess(abs(row['updated_at'] - row['last_seen_up']),
                        datetime.timedelta(milliseconds=1))
        self.assertEqual(1, row['report_count'])

    def _down_time(self, seconds):
        backends.override(self, 'service_down_time', seconds)

    def _liveness_after(self, age):
        """Is the service up when its last heartbeat is ``age`` old (DB clock)?"""
        service = service_db.service_register('clock-host', service_db.COMPUTE_BINARY)
        with engine.writer() as conn:
            conn.execute(sa.update(models.services)
                         .where(models.services.c.id == service['id'])
                         .values(last_seen_up=dbtime.db_time() - age))
        row = service_db.service_list(host='clock-host')[0]
        return servicegroup.API().service_is_up(row)

    def test_heartbeat_just_inside_service_down_time_is_up(self):
        for down_time in (1, 60):
            self._down_time(down_time)
            self.assertTrue(self._liveness_after(down_time * SECOND - MARGIN), down_time)

    def test_heartbeat_just_beyond_service_down_time_is_down(self):
        for down_time in (1, 60):
            self._down_time(down_time)
            self.assertFalse(self._liveness_after(down_time * SECOND + MARGIN), down_time)

    def test_heartbeat_from_the_future_is_not_trusted(self):
        self._down_time(60)
        self.assertTrue(self._liveness_after(-(60 * SECOND - MARGIN)))
        self.assertFalse(self._liveness_after(-(60 * SECOND + MARGIN)))

    def test_fresh_heartbeat_is_up_with_a_one_second_down_time(self):
        self._down_time(1)
        service = service_db.service_register('clock-host', service_db.COMPUTE_BINARY)
        service_db.service_heartbeat(service['id'])
        row = service_db.service_list(host='clock-host')[0]
        self.assertTrue(servicegroup.API().service_is_up(row))
        time.sleep(1.2)
        row = service_db.service_list(host='clock-host')[0]
        self.assertFalse(servicegroup.API().service_is_up(row))


class ClockSQLiteTest(_ClockTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class ClockMySQLTest(_ClockTests, backends.BackendTestCase):
    BACKEND = 'mysql'
    FOREIGN_ZONE = "SET time_zone = '+05:30'"


class ClockPostgreSQLTest(_ClockTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
    FOREIGN_ZONE = "SET TIME ZONE 'Asia/Kolkata'"
