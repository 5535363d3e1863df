"""Maintenance window storage on SQLite, MariaDB/MySQL and PostgreSQL:
concurrent overlapping requests store exactly one window, the watcher's
start and end change the service only as the window allows, and each
applies once however many watchers try."""
import concurrent.futures
import datetime
import threading

import sqlalchemy as sa

from nova.compute import host_status_transitions as transitions
from nova.compute import maintenance
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.db.dbtime import db_now
from nova.db import host_maintenance as store
from nova.db import host_status_events as events
from nova.notifications import host_status_watcher
from nova import exception
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

RACERS = 6


def _iso(value):
    return value.isoformat() + 'Z'


class _MaintenanceStoreTests:

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('host-1')
        nova_fixtures.add_service('host-2')
        self.now = dbtime.db_time()

    def window(self, host='host-1', start=60, end=3600, **kwargs):
        return maintenance.create(host, _iso(self.now + datetime.timedelta(seconds=start)),
                                  _iso(self.now + datetime.timedelta(seconds=end)), **kwargs)

    @staticmethod
    def arrive(row, at):
        """Move the window so that ``at`` ('start' or 'end') lies just
        behind the database's clock: time passes without a sleep."""
        column = {'start': store.windows.c.start_at, 'end': store.windows.c.end_at}[at]
        with engine.writer() as conn:
            current = conn.execute(sa.select(store.windows).where(
                store.windows.c.id == row['id'])).mappings().one()
            shift = (current[column.name] - conn.scalar(sa.select(db_now()))
                     + datetime.timedelta(milliseconds=1))
            conn.execute(sa.update(store.windows).where(store.windows.c.id == row['id'])
                         .values(start_at=current['start_at'] - shift,
                                 end_at=current['end_at'] - shift))

    def service(self, host='host-1'):
        return service_db.service_list(host=host, binary=service_db.COMPUTE_BINARY)[0]

    def test_racing_overlapping_requests_store_one_window(self):
        barrier = threading.Barrier(RACERS)

        def attempt(i):
            barrier.wait(30)
            try:
                self.window(start=60 + i, end=3600 + i)
                return 'created'
            except exception.MaintenanceWindowOverlap:
                return 'overlap'
        with concurrent.futures.ThreadPoolExecutor(RACERS) as pool:
            outcomes = list(pool.map(attempt, range(RACERS)))
        self.assertEqual(['created'] + ['overlap'] * (RACERS - 1), sorted(outcomes))
        self.assertEqual(1, len(store.list_all('host-1')))
        # another host is no conflict, nor is a window after the first
        self.window(host='host-2')
        self.window(start=3600 + RACERS, end=7200)

    def test_racing_updates_cannot_make_two_windows_overlap(self):
        first = self.window(start=60, end=600)
        second = self.window(start=1200, end=1800)
        barrier = threading.Barrier(2)

        def stretch(row, changes):
            barrier.wait(30)
            try:
                maintenance.update(row['uuid'], changes)
                return 'changed'
            except exception.MaintenanceWindowOverlap:
                return 'overlap'
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            outcomes = sorted(pool.map(stretch, (first, second), (
                # either alone is fine, both together overlap
                {'end': _iso(self.now + datetime.timedelta(seconds=1000))},
                {'start': _iso(self.now + datetime.timedelta(seconds=800))})))
        self.assertEqual(['changed', 'overlap'], outcomes)
        a, b = (store.get(first['uuid']), store.get(second['uuid']))
        self.assertTrue(a['end_at'] <= b['start_at'] or b['end_at'] <= a['start_at'])

    def test_refused_input_changes_nothing(self):
        cases = {
            'end before start': (600, 60, exception.InvalidMaintenanceWindow),
            'in the past': (-7200, -3600, exception.InvalidMaintenanceWindow),
            'longer than 30 days': (60, 31 * 86400, exception.InvalidMaintenanceWindow),
        }
        for name, (start, end, error) in cases.items():
            self.assertRaises(error, self.window, start=start, end=end)
        self.assertRaises(exception.ComputeHostNotFound, self.window, host='nowhere')
        for text in ('tomorrow', '2030-01-01T00:00:00+02:00', '2030-02-30T00:00:00Z'):
            self.assertRaises(exception.InvalidMaintenanceWindow, maintenance.create,
                              'host-1', text, '2030-03-01T00:00:00Z')
        self.assertEqual([], store.list_all())

    def start_due(self):
        """The watcher's start of due windows, in a transaction of its own."""
        with engine.writer() as conn:
            return store.start_due(conn)

    def end_due(self):
        with engine.writer() as conn:
            return store.end_due(conn)

    def test_start_disables_and_end_enables_once(self):
        row = self.window(start=600, end=1200, reason='firmware')
        self.assertEqual([], self.start_due())
        self.arrive(row, 'start')
        self.assertEqual([row['uuid']], [r['uuid'] for r in self.start_due()])
        self.assertEqual([], self.start_due())        # a second watcher: nothing
        service = self.service()
        self.assertTrue(service['disabled'])
        self.assertEqual('maintenance window %s' % row['uuid'], service['disabled_reason'])
        self.assertEqual('in-progress', store.get(row['uuid'])['state'])
        self.assertEqual([], self.end_due())
        self.arrive(row, 'end')
        self.assertEqual([row['uuid']], [r['uuid'] for r in self.end_due()])
        self.assertEqual([], self.end_due())
        service = self.service()
        self.assertFalse(service['disabled'])
        self.assertIsNone(service['disabled_reason'])
        self.assertEqual('completed', store.get(row['uuid'])['state'])

    def test_end_leaves_a_service_disabled_before_or_by_an_operator(self):
        service_db.service_update('host-2', 'nova-compute', disabled=True, disabled_reason='rma')
        before = self.window(host='host-2')
        during = self.window(host='host-1')
        self.arrive(before, 'start')
        self.arrive(during, 'start')
        self.start_due()
        # the operator takes host-1 over while its window runs
        service_db.service_update('host-1', 'nova-compute', disabled=True, disabled_reason='disk')
        self.arrive(before, 'end')
        self.arrive(during, 'end')
        self.assertEqual({before['uuid'], during['uuid']},
                         {r['uuid'] for r in self.end_due()})
        self.assertEqual((True, 'rma'), (self.service('host-2')['disabled'],
                                         self.service('host-2')['disabled_reason']))
        self.assertEqual((True, 'disk'), (self.service('host-1')['disabled'],
                                          self.service('host-1')['disabled_reason']))

    def test_cancel_and_edit_rules(self):
        row = self.window(start=60, end=600)
        self.arrive(row, 'start')
        self.start_due()
        self.assertRaises(exception.MaintenanceWindowNotEditable, maintenance.cancel,
                          row['uuid'])
        self.assertRaises(exception.MaintenanceWindowNotEditable, maintenance.update,
                          row['uuid'], {'impact': 'reboot'})
        # in progress, its end may move (earlier or later)
        end = dbtime.db_time() + datetime.timedelta(seconds=300)
        self.assertEqual(end, maintenance.update(row['uuid'], {'end': _iso(end)})['end_at'])
        self.assertRaises(exception.InvalidMaintenanceWindow, maintenance.update,
                          row['uuid'], {'end': _iso(dbtime.db_time()
                                                    - datetime.timedelta(seconds=1))})
        self.arrive(row, 'end')
        self.end_due()
        self.assertRaises(exception.MaintenanceWindowNotEditable, maintenance.update,
                          row['uuid'], {'reason': 'late'})
        later = self.window(start=3600, end=7200)
        maintenance.cancel(later['uuid'])
        self.assertEqual('cancelled', store.get(later['uuid'])['state'])
        self.assertRaises(exception.MaintenanceWindowNotFound, maintenance.cancel,
                          '00000000-0000-0000-0000-000000000000')

    def test_prune_keeps_open_and_recent_windows(self):
        old = self.window(start=60, end=120)
        with engine.writer() as conn:
            conn.execute(sa.update(store.windows).where(store.windows.c.uuid == old['uuid'])
                         .values(state='completed',
                                 end_at=self.now - datetime.timedelta(days=8)))
        self.window(start=600, end=900)
        self.assertEqual(1, store.prune(7 * 86400))
        self.assertEqual(1, len(store.list_all()))

    def test_hosts_starting_within_the_lookahead(self):
        self.window(host='host-1', start=3600, end=7200)
        self.window(host='host-2', start=90000, end=90600)
        with engine.reader() as conn:
            self.assertEqual({'host-1'}, store.hosts_starting_within(conn, 86400))
            self.assertEqual({'host-1', 'host-2'}, store.hosts_starting_within(conn, 100000))


    def test_window_transitions_are_events_even_when_the_state_stays(self):
        key, up = ('host-1', 'nova-compute'), transitions.State('UP', 'up', 'enabled')
        events.hold_lease('w', 60)
        for reason in (transitions.MAINTENANCE_STARTED, transitions.MAINTENANCE_ENDED):
            # the first announces a service the watcher had not seen yet
            events.record_states('w', 60, {key: (up, None)}, host_status_watcher._reason,
                                 apply=lambda conn: ({key: reason}, {}))
        self.assertEqual([('maintenance_started', '', 'UP'), ('maintenance_ended', 'UP', 'UP')],
                         [(e['reason'], e['old_status'], e['new_status'])
                          for e in events.undelivered()])


class MaintenanceSQLiteTest(_MaintenanceStoreTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class MaintenanceMySQLTest(_MaintenanceStoreTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class MaintenancePostgreSQLTest(_MaintenanceStoreTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
