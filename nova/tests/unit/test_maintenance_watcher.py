"""The watcher's tick starts and ends maintenance windows in-process on a
SQLite file: each transition once, announced with its own reason, in one
transaction with its event (a watcher killed in between leaves neither),
the service left as an operator set it."""
import datetime
import os

import fixtures
import sqlalchemy as sa
import testtools

from nova.compute import maintenance
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.db import host_maintenance
from nova.db import host_status_events as store
from nova.notifications import host_status_watcher
from nova.tests import fixtures as nova_fixtures
from nova.tests.unit.test_host_status_watcher import notifier

windows = host_maintenance.windows
KILLED = 37     # the exit status of a watcher the fault hook killed


def _iso(value):
    return value.isoformat() + 'Z'


class MaintenanceTickTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.useFixture(fixtures.FakeLogger())
        nova_fixtures.add_service('host-1')
        self.watcher = host_status_watcher.Watcher(notifier=notifier(), holder='w')
        now = dbtime.db_time()
        self.window = maintenance.create('host-1', _iso(now + datetime.timedelta(hours=1)),
                                         _iso(now + datetime.timedelta(hours=2)))

    def shift(self, hours):
        """Move the window ``hours`` earlier: time passes without a sleep."""
        delta = datetime.timedelta(hours=hours)
        row = host_maintenance.get(self.window['uuid'])
        with engine.writer() as conn:
            conn.execute(sa.update(windows).where(windows.c.id == row['id']).values(
                start_at=row['start_at'] - delta, end_at=row['end_at'] - delta))

    def reasons(self):
        """The reasons of the stored transitions (the feed's events)."""
        return [e['reason'] for e in store.undelivered() if e['reason'] != store.SERVICE_UPDATE]

    def service_updates(self):
        return [e['host'] for e in store.undelivered() if e['reason'] == store.SERVICE_UPDATE]

    def service(self):
        return service_db.service_list(host='host-1')[0]

    def test_start_and_end_on_the_tick_after_their_time(self):
        self.watcher.tick()
        self.assertEqual(['registered'], self.reasons())
        self.shift(1.01)
        self.watcher.tick()
        self.watcher.tick()
        self.assertEqual(['registered', 'maintenance_started'], self.reasons())
        self.assertTrue(self.service()['disabled'])
        self.shift(1.01)
        self.watcher.tick()
        self.watcher.tick()
        self.assertEqual(['registered', 'maintenance_started', 'maintenance_ended'],
                         self.reasons())
        self.assertFalse(self.service()['disabled'])

    def test_a_window_missed_entirely_leaves_the_service_alone(self):
        self.shift(2.01)
        self.watcher.tick()
        self.assertEqual('completed', host_maintenance.get(self.window['uuid'])['state'])
        self.assertFalse(self.service()['disabled'])
        self.assertEqual(['registered'], self.reasons())

    def test_an_operators_disable_during_the_window_stays(self):
        self.shift(1.01)
        self.watcher.tick()
        service_db.service_update('host-1', 'nova-compute', disabled=True, disabled_reason='disk')
        self.shift(1.01)
        self.watcher.tick()
        self.assertEqual((True, 'disk'), (self.service()['disabled'],
                                          self.service()['disabled_reason']))
        self.assertEqual('maintenance_ended', self.reasons()[-1])

    def _killed_storing(self, reason):
        """Run one tick in a forked watcher that dies (os._exit, as a kill:
        no rollback, no cleanup) once the window's change is written and
        the event announcing it is about to be: the fault hook."""
        pid = os.fork()
        if pid == 0:
            try:
                engine.get_engine().dispose(close=False)    # the parent's connections
                store_event = store._event

                def dying(conn, **values):
                    if values.get('reason') == reason:
                        os._exit(KILLED)
                    return store_event(conn, **values)
                store._event = dying
                host_status_watcher.Watcher(notifier=notifier(), holder='w').tick()
            finally:
                os._exit(1)         # the hook never fired
        _, status = os.waitpid(pid, 0)
        self.assertEqual(KILLED, os.waitstatus_to_exitcode(status))

    def test_a_watcher_killed_between_a_window_change_and_its_event(self):
        self.watcher.tick()
        for reason, state, disabled in (('maintenance_started', 'in-progress', True),
                                        ('maintenance_ended', 'completed', False)):
            self.shift(1.01)
            before, updates = self.reasons(), self.service_updates()
            self._killed_storing(reason)
            # nothing of that tick stayed: the window, the service, the events
            self.assertEqual((before, updates), (self.reasons(), self.service_updates()))
            self.assertNotEqual(state, host_maintenance.get(self.window['uuid'])['state'])
            self.assertEqual(not disabled, bool(self.service()['disabled']))
            # the next watcher (same holder: its lease) does it all, once
            self.watcher.tick()
            self.watcher.tick()
            self.assertEqual(before + [reason], self.reasons())
            self.assertEqual(['host-1'] * (2 if reason == 'maintenance_ended' else 1),
                             self.service_updates())
            self.assertEqual(state, host_maintenance.get(self.window['uuid'])['state'])
            self.assertEqual(disabled, bool(self.service()['disabled']))
