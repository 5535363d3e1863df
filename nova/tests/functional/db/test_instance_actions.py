"""Instance actions in the database, on SQLite, MariaDB/MySQL and
PostgreSQL: the single-statement event writes that find their action
themselves (INSERT ... SELECT, and MySQL's derived table for the action's
own UPDATE), an Error marking the action, and pages by request id."""
import sqlalchemy as sa

from nova.db import engine
from nova.db import instance_actions as db
from nova.db import models
from nova.tests.functional.db import backends

UUID = '6b1e2c4a-0000-4000-8000-00000000000a'


class _Tests:

    def setUp(self):
        super().setUp()
        self.addCleanup(self._forget)

    @staticmethod
    def _forget():
        with engine.writer() as conn:
            conn.execute(sa.delete(models.instance_actions_events))
            conn.execute(sa.delete(models.instance_actions))

    def test_events_find_their_action_and_an_error_marks_it(self):
        db.start([{'uuid': UUID}], 'reboot', 'req-1', 'u', 'p')
        db.start([{'uuid': UUID}], 'evacuate', 'req-2', 'u', 'p')
        db.event_start(UUID, 'reboot', 'compute_reboot_instance', 'h1')
        db.event_finish(UUID, 'reboot', 'compute_reboot_instance', db.SUCCESS)
        db.event_record(UUID, 'evacuate', 'conductor_rebuild_server', 'api', db.SUCCESS)
        db.event_record(UUID, 'evacuate', 'compute_rebuild_instance', 'h2', db.ERROR)
        # an action never recorded: nothing written, nothing raised
        db.event_record(UUID, 'stop', 'compute_stop_instance', 'h1', db.SUCCESS)
        reboot, events = db.get(UUID, 'req-1')
        self.assertEqual((None, [('compute_reboot_instance', 'Success', 'h1')]), (
            reboot['message'], [(e['event'], e['result'], e['host']) for e in events]))
        self.assertIsNotNone(events[0]['finish_time'])
        evacuate, events = db.get(UUID, 'req-2')
        self.assertEqual(('Error', ['Success', 'Error']),
                         (evacuate['message'], [e['result'] for e in events]))
        rows, found = db.page(UUID, limit=1)
        self.assertEqual((['req-2'], True), ([r['request_id'] for r in rows], found))
        rows, found = db.page(UUID, marker='req-2')
        self.assertEqual((['req-1'], True), ([r['request_id'] for r in rows], found))
        self.assertEqual(([], False), db.page(UUID, marker='req-9'))
        self.assertIsNone(db.get(UUID, 'req-9'))


class SQLiteTest(_Tests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class MySQLTest(_Tests, backends.BackendTestCase):
    BACKEND = 'mysql'


class PostgreSQLTest(_Tests, backends.BackendTestCase):
    BACKEND = 'postgresql'
