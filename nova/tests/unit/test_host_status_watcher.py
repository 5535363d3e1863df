"""The watcher in-process on a SQLite file, notifying through
oslo.messaging's own ``test`` driver: what a dead watcher stored but did
not deliver goes out once, with its id; a liveness-backend outage is one
event each way, not one per host; reasons follow the operator first."""
import fixtures
import oslo_messaging
from oslo_messaging.notify import _impl_test
import testtools

import nova.conf
from nova.compute import host_status_transitions as transitions
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import evacuations
from nova.db import host_status_events as store
from nova import exception
from nova.notifications import host_status_watcher
from nova.tests import fixtures as nova_fixtures

CONF = nova.conf.CONF
State = transitions.State


def notifier():
    transport = oslo_messaging.get_notification_transport(CONF, url='fake://')
    return oslo_messaging.Notifier(transport, publisher_id='test', driver='test',
                                   topics=['versioned_notifications'])


def sent():
    """(event_type, payload data) of every notification the driver got."""
    return [(message['event_type'], message['payload']['nova_object.data'])
            for _, message, _, _ in _impl_test.NOTIFICATIONS]


class _Unreachable:
    """A servicegroup whose backend is away while ``down`` is set."""
    down = True

    def hosts_up(self, services):
        if self.down:
            raise exception.ServiceGroupUnavailable()
        return set(services)


class WatcherTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.useFixture(fixtures.FakeLogger())
        _impl_test.reset()
        self.addCleanup(_impl_test.reset)

    def deliver_all(self, watcher):
        for event in store.undelivered():
            watcher.deliver(event)
            store.mark_delivered(event['id'])

    def test_what_a_dead_watcher_left_undelivered_goes_out_once_with_its_id(self):
        nova_fixtures.add_service('host-1')
        server = nova_fixtures.add_server('vm', host='host-1')
        first = host_status_watcher.Watcher(notifier=notifier(), holder='first')
        first.tick()                        # stores "registered", then dies
        stored = store.undelivered()
        self.assertEqual(['registered'], [e['reason'] for e in stored])
        store.release_lease('first')

        second = host_status_watcher.Watcher(notifier=notifier(), holder='second')
        second.tick()
        self.assertEqual(stored, store.undelivered())     # nothing stored twice
        self.deliver_all(second)
        second.tick()
        self.deliver_all(second)
        self.assertEqual(
            [('service.host_status.update', stored[0]['uuid']),
             ('instance.host_status.update', stored[0]['uuid'])],
            [(kind, data['event_id']) for kind, data in sent()])
        self.assertEqual(server, sent()[1][1]['uuid'])
        self.assertEqual([], store.undelivered())

    def test_a_liveness_outage_is_one_event_not_one_per_host(self):
        for host in ('host-1', 'host-2', 'host-3'):
            nova_fixtures.add_service(host)
        group = _Unreachable()
        watcher = host_status_watcher.Watcher(notifier=notifier(), group=group,
                                              holder='w')
        for _ in range(3):
            watcher.tick()
        self.assertEqual(['liveness_unavailable'],
                         [e['reason'] for e in store.undelivered()])
        group.down = False
        watcher.tick()
        watcher.tick()
        self.assertEqual(['liveness_unavailable', 'liveness_restored', 'registered',
                          'registered', 'registered'],
                         [e['reason'] for e in store.undelivered()])
        self.deliver_all(watcher)
        outage = sent()[0][1]
        self.assertEqual(('liveness_unavailable', None, None),
                         (outage['reason'], outage['host'], outage['new_status']))

    def test_operator_changes_send_novas_service_update(self):
        nova_fixtures.add_service('host-1')
        watcher = host_status_watcher.Watcher(notifier=notifier(), holder='w')
        watcher.tick()
        self.deliver_all(watcher)
        _impl_test.reset()
        service_db.service_update('host-1', 'nova-compute', disabled=True,
                                              disabled_reason='disk')
        watcher.tick()
        self.deliver_all(watcher)
        kinds = [kind for kind, _ in sent()]
        self.assertEqual(['service.update', 'service.host_status.update'], kinds)
        update = sent()[0][1]
        self.assertEqual((True, 'disk', False, 'nova'), (
            update['disabled'], update['disabled_reason'], update['forced_down'],
            update['availability_zone']))
        self.assertEqual('nova-compute:host-1', _impl_test.NOTIFICATIONS[0][1]['publisher_id'])

    def test_every_change_nova_announces_sends_service_update(self):
        nova_fixtures.add_service('host-1')
        watcher = host_status_watcher.Watcher(notifier=notifier(), holder='w')
        watcher.tick()
        self.deliver_all(watcher)
        changes = [dict(disabled=True, disabled_reason='disk'),
                   dict(disabled_reason='disk, then firmware'),   # the reason alone
                   dict(disabled=True),                           # no change, still sent
                   dict(forced_down=True), dict(forced_down=False),
                   dict(disabled=False, disabled_reason=None)]
        _impl_test.reset()
        for change in changes:
            service_db.service_update('host-1', 'nova-compute', **change)
            watcher.tick()
            self.deliver_all(watcher)
        updates = [data for kind, data in sent() if kind == 'service.update']
        self.assertEqual(len(changes), len(updates))
        self.assertEqual('disk, then firmware', updates[1]['disabled_reason'])
        self.assertEqual([True, False], [u['forced_down'] for u in updates[3:5]])
        # the reason alone is no host status transition
        self.assertEqual(['disabled', 'forced_down', 'forced_up', 'enabled'],
                         [data['reason'] for kind, data in sent()
                          if kind == 'service.host_status.update'])
        # a heartbeat is not one of them
        _impl_test.reset()
        service_db.service_heartbeat(service_db.service_list(host='host-1')[0]['id'])
        watcher.tick()
        self.deliver_all(watcher)
        self.assertEqual([], sent())


    def _evacuate(self, uuid, dest):
        """An evacuation of ``uuid`` as the destination compute finishes it."""
        with engine.reader() as conn:
            row = instance_db.instance_get(conn, uuid)
        evacuations.start(row, ('active',), dest)
        with engine.reader() as conn:
            (migration,) = [m for m in evacuations.of_host(conn, dest)
                            if m['dest_compute'] == dest]
        self.assertTrue(evacuations.claim(migration, dest))
        self.assertTrue(evacuations.finish(migration, dest, {'power_state': 1},
                                           {'task_state': None}))

    def test_an_evacuated_server_is_told_once_that_it_reads_its_new_host(self):
        nova_fixtures.add_service('host-1')
        nova_fixtures.add_service('host-2')
        moved = nova_fixtures.add_server('moved', host='host-1')
        stays = nova_fixtures.add_server('stays', host='host-1')
        first = host_status_watcher.Watcher(notifier=notifier(), holder='first')
        first.tick()
        self.deliver_all(first)
        _impl_test.reset()
        # fenced and evacuated between two looks
        service_db.service_update('host-1', 'nova-compute', forced_down=True)
        self._evacuate(moved, 'host-2')
        first.tick()
        store.release_lease('first')        # a takeover must not tell it again
        second = host_status_watcher.Watcher(notifier=notifier(), holder='second')
        second.tick()
        self.deliver_all(second)

        self.assertEqual(
            [('service.host_status.update', None, 'host-1', 'UP', 'DOWN', 'forced_down'),
             ('instance.host_status.update', moved, 'host-1', 'UP', 'DOWN', 'forced_down'),
             ('instance.host_status.update', stays, 'host-1', 'UP', 'DOWN', 'forced_down'),
             ('instance.host_status.update', moved, 'host-2', 'DOWN', 'UP', 'evacuated')],
            [(kind, data.get('uuid'), data['host'], data['old_status'], data['new_status'],
              data['reason']) for kind, data in sent() if kind != 'service.update'])
        # each server's feed follows where it was; the hosts' feed has no
        # service change for the move
        self.assertEqual(
            [('registered', 'host-1'), ('forced_down', 'host-1'), ('evacuated', 'host-2')],
            [(event['reason'], event['host'])
             for event in store.server_page((0, 0), 10, server_id=moved)])
        self.assertEqual([('registered', 'host-1'), ('forced_down', 'host-1')],
                         [(event['reason'], event['host'])
                          for event in store.server_page((0, 0), 10, server_id=stays)])
        self.assertEqual(['registered', 'registered', 'forced_down'],
                         [event['reason'] for event in store.service_page(0, 10)])


    def test_a_server_evacuated_back_keeps_one_history(self):
        nova_fixtures.add_service('host-1')
        nova_fixtures.add_service('host-2')
        server = nova_fixtures.add_server('vm', host='host-1')
        watcher = host_status_watcher.Watcher(notifier=notifier(), holder='w')
        watcher.tick()
        self._evacuate(server, 'host-2')
        watcher.tick()
        self._evacuate(server, 'host-1')
        watcher.tick()
        self.assertEqual(
            [('registered', 'host-1'), ('evacuated', 'host-2'), ('evacuated', 'host-1')],
            [(event['reason'], event['host'])
             for event in store.server_page((0, 0), 10, server_id=server)])


class ReasonTest(testtools.TestCase):

    def test_the_operator_explains_first(self):
        up = State('UP', 'up', 'enabled')
        cases = [
            (None, up, 'registered'),
            (up, None, 'removed'),
            (up, State('DOWN', 'stale', 'forced-down'), 'forced_down'),
            (State('DOWN', 'stale', 'forced-down'), up, 'forced_up'),
            (up, State('MAINTENANCE', 'up', 'disabled'), 'disabled'),
            (State('MAINTENANCE', 'up', 'disabled'), up, 'enabled'),
            (up, State('UNKNOWN', 'stale', 'enabled'), 'heartbeat_stale'),
            (State('UNKNOWN', 'stale', 'enabled'), up, 'heartbeat_resumed'),
            # legacy status unchanged, liveness changed: still an event
            (State('MAINTENANCE', 'up', 'disabled'), State('MAINTENANCE', 'stale', 'disabled'),
             'heartbeat_stale'),
            (up, up, None),
        ]
        for old, new, reason in cases:
            self.assertEqual(reason, transitions.reason(old, new), (old, new))

    def test_state_of_a_service(self):
        service = {'disabled': True, 'forced_down': False}
        self.assertEqual(State('MAINTENANCE', 'stale', 'disabled'),
                         transitions.state(service, False))
