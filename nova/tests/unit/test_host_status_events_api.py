"""GET /os-host-status-events in-process on a real SQLite database: the
admin and member views, cursor paging, the 400s, the long poll and its cap."""
import threading
import time

from nova.api.openstack.compute import host_status_events as feed
from nova.compute import host_status_transitions as transitions
from nova.notifications import host_status_watcher
from nova.db import engine
from nova.db import host_status_events as store
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

UP = transitions.State('UP', 'up', 'enabled')
STALE = transitions.State('UNKNOWN', 'stale', 'enabled')
PATH = '/v2.1/os-host-status-events'


def record(states):
    store.hold_lease('test', 60)
    return store.record_states('test', 60, states, host_status_watcher._reason)


class FeedTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.mine = nova_fixtures.add_server('mine', host='host-1', project_id='demo')
        self.theirs = nova_fixtures.add_server('theirs', host='host-1', project_id='alt')
        time.sleep(0.01)       # the servers exist before the events
        record({('host-1', 'nova-compute'): (UP, None),
                ('host-2', 'nova-compute'): (UP, None)})
        record({('host-1', 'nova-compute'): (STALE, None),
                ('host-2', 'nova-compute'): (UP, None)})

    def get(self, query='', token='admin:admin'):
        return self.api.request('GET', PATH + query, token=token)

    def test_admins_see_service_events_with_hosts_oldest_first(self):
        resp = self.get()
        self.assertEqual(200, resp.status_int)
        events = resp.json['events']
        self.assertEqual([('host-1', 'registered'), ('host-2', 'registered'),
                          ('host-1', 'heartbeat_stale')],
                         [(e['host'], e['reason']) for e in events])
        self.assertEqual(['id', 'host', 'old_status', 'new_status', 'liveness',
                          'admin_state', 'reason', 'at'], list(events[0]))
        self.assertEqual(('UP', 'UNKNOWN', 'stale'), (events[2]['old_status'],
                         events[2]['new_status'], events[2]['liveness']))

    def test_service_update_requests_are_not_events(self):
        with engine.writer() as conn:
            store.request_service_update(conn, 'host-1', 'nova-compute')
        for token in ('admin:admin', 'demo:demo'):
            reasons = [e['reason'] for e in self.get(token=token).json['events']]
            self.assertEqual(['registered', 'heartbeat_stale'], reasons[-2:])
            self.assertNotIn(store.SERVICE_UPDATE, reasons)

    def test_members_see_their_servers_with_host_id_never_the_host(self):
        events = self.get(token='demo:demo').json['events']
        self.assertEqual([(self.mine, 'registered'), (self.mine, 'heartbeat_stale')],
                         [(e['server_id'], e['reason']) for e in events])
        self.assertNotIn('host', events[0])
        self.assertNotIn('host-1', str(events))
        show = self.api.request('GET', '/v2.1/servers/' + self.mine, token='demo:demo')
        self.assertEqual(show.json['server']['hostId'], events[0]['hostId'])

    def test_server_id_filter(self):
        events = self.get('?server_id=' + self.theirs).json['events']
        self.assertEqual({self.theirs}, {e['server_id'] for e in events})
        self.assertEqual('host-1', events[0]['host'])
        self.assertEqual([], self.get('?server_id=' + self.theirs,
                                      token='demo:demo').json['events'])

    def test_cursor_pages_without_gaps_or_repeats(self):
        seen = []
        cursor = None
        for _ in range(5):
            query = '?limit=1' + ('&after=' + cursor if cursor else '')
            body = self.get(query).json
            seen += [e['id'] for e in body['events']]
            cursor = body['next']
        self.assertEqual([e['id'] for e in self.get().json['events']], seen)
        # past the end: an empty page keeps the cursor
        self.assertEqual(cursor, self.get('?after=' + cursor).json['next'])

    def test_an_empty_feed_gives_a_cursor_past_what_is_stored(self):
        cursor = self.get('?server_id=' + nova_fixtures.add_server('new', host='host-3'),
                          token='demo:demo').json['next']
        record({('host-1', 'nova-compute'): (UP, None),
                ('host-2', 'nova-compute'): (UP, None)})
        body = self.get('?after=' + cursor, token='demo:demo').json
        self.assertEqual([(self.mine, 'heartbeat_resumed')],
                         [(e['server_id'], e['reason']) for e in body['events']])

    def test_bad_parameters_are_400_faults(self):
        for query in ('?after=nope!', '?after=bm9wZQ', '?wait=26', '?wait=-1', '?wait=x',
                      '?limit=x', '?limit=0', '?server_id=nope',
                      '?after=' + feed.encode_cursor(10 ** 6, 0, store.feed_bounds()[1])):
            resp = self.get(query)
            self.assertEqual(400, resp.status_int, query)
            self.assertEqual(400, resp.json['badRequest']['code'], query)

    def test_an_expired_cursor_is_a_400(self):
        backends.override(self, 'retention_days', 1, group='host_status_watcher')
        events = self.get().json['events']
        old = feed.encode_cursor(1, 0, store.feed_bounds()[1].replace(year=2000))
        resp = self.get('?after=' + old)
        self.assertEqual(400, resp.status_int)
        self.assertIn('expired', resp.json['badRequest']['message'])
        self.assertEqual(3, len(events))

    def test_long_poll_answers_when_an_event_is_stored(self):
        cursor = self.get().json['next']
        answer = {}

        def poll():
            answer['resp'] = self.get('?wait=20&after=' + cursor)
            answer['db_now'] = store.feed_bounds()[1]
        thread = threading.Thread(target=poll)
        thread.start()
        time.sleep(0.5)
        self.assertTrue(thread.is_alive())
        record({('host-1', 'nova-compute'): (UP, None),
                ('host-2', 'nova-compute'): (UP, None)})
        thread.join(20)
        events = answer['resp'].json['events']
        self.assertEqual(['heartbeat_resumed'], [e['reason'] for e in events])
        stored_at = store.undelivered()[-1]['at']
        self.assertLess((answer['db_now'] - stored_at).total_seconds(), 1.0)

    def test_long_poll_times_out_with_the_same_cursor(self):
        cursor = self.get().json['next']
        body = self.get('?wait=0.5&after=' + cursor).json
        self.assertEqual({'events': [], 'next': cursor}, body)

    def test_waits_beyond_the_project_cap_are_429(self):
        backends.override(self, 'max_waits_per_project', 1, group='api')
        self.useFixture(_FreshSlots())
        cursor = self.get(token='demo:demo').json['next']
        thread = threading.Thread(
            target=self.get, args=('?wait=6&after=' + cursor,), kwargs={'token': 'demo:demo'})
        thread.start()
        try:
            deadline = time.monotonic() + 10
            while not feed._wait_slots()._held and time.monotonic() < deadline:
                time.sleep(0.05)
            resp = self.get('?wait=3&after=' + cursor, token='demo:demo')
            self.assertEqual(429, resp.status_int)
            self.assertEqual(429, resp.json['overLimit']['code'])
            # another project waits on
            self.assertEqual(200, self.get('?wait=0.2', token='alt:alt').status_int)
        finally:
            thread.join(10)


class _FreshSlots(nova_fixtures.fixtures.Fixture):
    def _setUp(self):
        feed._slots = None
        self.addCleanup(setattr, feed, '_slots', None)
