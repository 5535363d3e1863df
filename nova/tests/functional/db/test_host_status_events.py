"""The watcher's storage on SQLite, MariaDB/MySQL and PostgreSQL: one lease
holder at a time judged on the database clock, a holder that lost the lease
writes nothing, each change is stored once, and the per-server fan-out is
derived from the servers on the host when the event happened."""
import time

from nova.compute import host_status_transitions as transitions
from nova.notifications import host_status_watcher
from nova.db import host_status_events as store
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

UP = transitions.State('UP', 'up', 'enabled')
STALE = transitions.State('UNKNOWN', 'stale', 'enabled')
KEY = ('host-1', 'nova-compute')


def _reason(old, new):
    return host_status_watcher._reason(old, new)


class _StoreTests:

    def _wait_for_lease(self, holder, ttl, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if store.hold_lease(holder, ttl):
                return
            time.sleep(0.1)
        self.fail('%s never got the lease' % holder)

    def test_one_holder_until_the_lease_expires_on_the_db_clock(self):
        self.assertTrue(store.hold_lease('a', 2.0))
        self.assertTrue(store.hold_lease('a', 2.0))      # renewal
        self.assertFalse(store.hold_lease('b', 60))
        first = store.lease()
        self._wait_for_lease('b', 60)
        taken = store.lease()
        self.assertEqual('b', taken['holder'])
        # b waited out a's ttl, counted from a's last renewal, on the DB clock
        self.assertGreater((taken['acquired_at'] - first['renewed_at']).total_seconds(), 2.0)
        self.assertFalse(store.hold_lease('a', 2.0))

    def test_release_hands_over_at_once(self):
        self.assertTrue(store.hold_lease('a', 60))
        store.release_lease('a')
        self.assertTrue(store.hold_lease('b', 60))

    def test_each_change_is_stored_once(self):
        store.hold_lease('a', 60)
        created = store.record_states('a', 60, {KEY: (UP, None)}, _reason)
        self.assertEqual(1, len(created))
        self.assertEqual([], store.record_states('a', 60, {KEY: (UP, None)}, _reason))
        stale = store.record_states('a', 60, {KEY: (STALE, None)}, _reason)
        self.assertEqual(1, len(stale))
        events = store.undelivered()
        self.assertEqual([('registered', '', 'UP'), ('heartbeat_stale', 'UP', 'UNKNOWN')],
                         [(e['reason'], e['old_status'], e['new_status']) for e in events])
        self.assertEqual(created + stale, [e['uuid'] for e in events])
        self.assertLess(events[0]['id'], events[1]['id'])

    def test_a_holder_without_the_lease_writes_nothing(self):
        store.hold_lease('a', 60)
        self.assertIsNone(store.record_states('b', 60, {KEY: (UP, None)}, _reason))
        self.assertIsNone(store.record_liveness('b', 60, False, 'liveness_unavailable'))
        self.assertEqual([], store.undelivered())

    def test_a_new_holder_emits_only_what_differs_from_the_stored_state(self):
        store.hold_lease('a', 60)
        store.record_states('a', 60, {KEY: (UP, None), ('host-2', 'nova-compute'): (UP, None)},
                            _reason)
        store.release_lease('a')
        store.hold_lease('b', 60)
        created = store.record_states(
            'b', 60, {KEY: (STALE, None), ('host-2', 'nova-compute'): (UP, None)}, _reason)
        self.assertEqual(1, len(created))
        self.assertEqual('host-1', store.undelivered()[-1]['host'])

    def test_a_removed_service_is_one_event_then_forgotten(self):
        store.hold_lease('a', 60)
        store.record_states('a', 60, {KEY: (UP, None)}, _reason)
        self.assertEqual(1, len(store.record_states('a', 60, {}, _reason)))
        self.assertEqual([], store.record_states('a', 60, {}, _reason))
        event = store.undelivered()[-1]
        self.assertEqual(('removed', 'UP', ''), (event['reason'], event['old_status'],
                                                 event['new_status']))

    def test_a_liveness_outage_is_one_event_each_way(self):
        store.hold_lease('a', 60)
        self.assertEqual('', store.record_liveness('a', 60, True, 'liveness_restored'))
        self.assertTrue(store.record_liveness('a', 60, False, 'liveness_unavailable'))
        self.assertEqual('', store.record_liveness('a', 60, False, 'liveness_unavailable'))
        self.assertTrue(store.record_liveness('a', 60, True, 'liveness_restored'))
        self.assertEqual(['liveness_unavailable', 'liveness_restored'],
                         [e['reason'] for e in store.undelivered()])
        self.assertIsNone(store.undelivered()[0]['host'])

    def test_delivered_events_are_not_handed_out_again(self):
        store.hold_lease('a', 60)
        store.record_states('a', 60, {KEY: (UP, None)}, _reason)
        event = store.undelivered()[0]
        store.mark_delivered(event['id'])
        self.assertEqual([], store.undelivered())

    def test_servers_of_an_event_are_those_on_the_host_then(self):
        before = nova_fixtures.add_server('before', host='host-1', project_id='p1')
        other = nova_fixtures.add_server('elsewhere', host='host-2', project_id='p1')
        mine = nova_fixtures.add_server('mine', host='host-1', project_id='p2')
        store.hold_lease('a', 60)
        store.record_states('a', 60, {KEY: (UP, None)}, _reason)
        time.sleep(0.01)
        nova_fixtures.add_server('after', host='host-1', project_id='p1')
        event = store.undelivered()[0]
        self.assertEqual({before, mine}, {s['uuid'] for s in store.servers_of(event['id'])})
        rows = store.server_page((0, 0), 10)
        self.assertEqual([before, mine], [r['server_id'] for r in rows])
        self.assertEqual([mine], [r['server_id'] for r in
                                  store.server_page((0, 0), 10, project_id='p2')])
        self.assertEqual([], store.server_page((0, 0), 10, server_id=other))
        # paging resumes inside one event's fan-out
        first = store.server_page((0, 0), 1)[0]
        rest = store.server_page((first['id'], first['server_row']), 10)
        self.assertEqual([mine], [r['server_id'] for r in rest])

    def test_prune_deletes_only_events_older_than_the_retention(self):
        store.hold_lease('a', 60)
        store.record_states('a', 60, {KEY: (UP, None)}, _reason)
        self.assertEqual(0, store.prune(3600))
        time.sleep(0.05)
        self.assertEqual(1, store.prune(0.01))
        self.assertEqual((0,), store.feed_bounds()[:1])


class StoreSQLiteTest(_StoreTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class StoreMySQLTest(_StoreTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class StorePostgreSQLTest(_StoreTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
