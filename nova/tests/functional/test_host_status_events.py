"""Host status events end to end: the real nova-all-in-one (API under
gunicorn, nova-compute processes, the watcher) sending its notifications to
the machine's RabbitMQ, a real oslo.messaging listener receiving them, and
the long-polled feed. Every delay is measured on the database's clock:

    stestr --test-path=./nova/tests/functional run test_host_status_events

prints "host-status-events: <what> <seconds> s" lines (also test details).
"""
import datetime
import json
import os
import signal
import sys
import threading
import time

import psutil
import sqlalchemy as sa
import testtools
from testtools import content

import nova
from nova.db import models
from nova.db.dbtime import db_now
from nova.tests.functional import fixtures as func
from nova.tests.functional import notifications
from nova.tests.functional.db import backend
from nova.tests.functional.test_api_samples import differences

# A compute must miss this many seconds of heartbeats (one a second) to
# go stale: a loaded machine must not make a host flap under the tests.
DOWN_TIME = 5
FEED = '/v2.1/os-host-status-events'
REPO = os.path.dirname(os.path.dirname(os.path.abspath(nova.__file__)))
SAMPLES = os.path.join(REPO, 'doc', 'source', 'notification_samples')
REGENERATE = os.environ.get('NOVA_REGENERATE_SAMPLES') == '1'
# differ from run to run but are no volatile pattern of differences()
_RUN_VALUES = ('report_count',)


def parse_time(text):
    return datetime.datetime.strptime(text.rstrip('Z'), '%Y-%m-%dT%H:%M:%S.%f')


def data(message):
    return message['payload']['nova_object.data']


def is_event(event_type, host=None, reason=None, uuid=None):
    def match(message):
        if message['event_type'] != event_type:
            return False
        fields = data(message)
        return ((host is None or fields.get('host') == host)
                and (reason is None or fields.get('reason') == reason)
                and (uuid is None or fields.get('uuid') == uuid))
    return match


class HostStatusEventsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.rabbit = self.useFixture(notifications.RabbitListener(self, clock=self.now))
        self.engine = None
        self.nova = self.useFixture(func.AllInOne(
            hosts=2, report_interval=1, service_down_time=DOWN_TIME,
            extra_config=self.rabbit.config + '\n[DEFAULT]\nhost = controller\n'))
        self.engine = sa.create_engine(
            'sqlite:///' + os.path.join(self.nova.data_dir, 'nova.sqlite'),
            poolclass=sa.pool.NullPool)
        self.addCleanup(self.engine.dispose)
        self.nova.attach_logs_on_failure(self)
        for host in self.nova.host_names:
            self.rabbit.wait_for(is_event('service.host_status.update', host, 'registered'),
                                 30, 'registered ' + host)

    # ------------------------------------------------------------- helpers

    def now(self):
        """The database's clock (None before the all-in-one runs)."""
        if self.engine is None:
            return None
        with self.engine.connect() as conn:
            return conn.scalar(sa.select(db_now()))

    def service(self, host):
        with self.engine.connect() as conn:
            return conn.execute(sa.select(models.services).where(
                models.services.c.host == host)).mappings().one()

    def lease(self):
        with self.engine.connect() as conn:
            return conn.execute(sa.select(models.host_status_leases)).mappings().one()

    def measured(self, what, seconds):
        self.addDetail(what, content.text_content('%.3f s' % seconds))
        print('host-status-events: %s %.3f s (service_down_time %d s)'
              % (what, seconds, DOWN_TIME), file=sys.stderr)

    def server_on_host_1(self):
        self.nova.service_action('disable', 'host-2')
        uuid = self.nova.create_server()
        self.nova.service_action('enable', 'host-2')
        self.assertEqual('host-1', self.nova.show(uuid).json['server']['OS-EXT-SRV-ATTR:host'])
        return uuid

    def feed(self, query='', token=func.ADMIN):
        resp = self.nova.request('GET', FEED + query, token=token)
        self.assertEqual(200, resp.status, resp.raw)
        return resp.json

    def watcher_process(self):
        for child in psutil.Process(self.nova.process.pid).children(recursive=True):
            if 'nova.cmd.host_status_watcher' in child.cmdline():
                return child
        raise LookupError('no watcher')

    def verify_sample(self, name, message):
        """The notification as the docs show it (doc/source/notification_samples)."""
        shown = {k: message[k] for k in ('priority', 'event_type', 'publisher_id', 'payload')}
        path = os.path.join(SAMPLES, name)
        if os.path.exists(path):
            with open(path) as f:
                sample = json.load(f)
            shown = json.loads(json.dumps(shown))
            for key in _RUN_VALUES:
                if key in data(shown):
                    data(shown)[key] = data(sample)[key]
            if not REGENERATE or not differences(sample, shown):
                self.assertEqual([], differences(sample, shown), name)
                return
        if not REGENERATE:
            self.fail('%s is missing; write it with NOVA_REGENERATE_SAMPLES=1' % name)
        os.makedirs(SAMPLES, exist_ok=True)
        with open(path, 'w') as f:
            f.write(json.dumps(shown, indent=4) + '\n')

    # --------------------------------------------------------------- tests

    def test_stale_heartbeat_and_resume_reach_rabbitmq(self):
        uuid = self.server_on_host_1()
        mark = self.rabbit.mark()
        before = self.service('host-1')['last_seen_up']
        self.nova.freeze_outside_writes('host-1')
        stale = self.rabbit.wait_for(
            is_event('service.host_status.update', 'host-1', 'heartbeat_stale'),
            DOWN_TIME + 10, 'heartbeat_stale', after=mark)
        # the last heartbeat as the watcher judged it (one still on the wire
        # at the freeze may land after any read of ours)
        last = parse_time(data(stale)['last_seen_up'])
        self.assertGreaterEqual(last, before)
        delay = (stale['received_at'] - last).total_seconds()
        self.measured('last heartbeat -> service.host_status.update', delay)
        self.assertGreaterEqual(delay, DOWN_TIME)
        self.assertLess(delay, DOWN_TIME + 2)
        self.assertEqual(('UP', 'UNKNOWN', 'stale', 'enabled'), tuple(
            data(stale)[k] for k in ('old_status', 'new_status', 'liveness', 'admin_state')))
        per_server = self.rabbit.wait_for(
            is_event('instance.host_status.update', uuid=uuid, reason='heartbeat_stale'),
            5, 'instance.host_status.update', after=mark)
        self.measured('last heartbeat -> instance.host_status.update',
                      (per_server['received_at'] - last).total_seconds())
        self.assertEqual(data(stale)['event_id'], data(per_server)['event_id'])
        self.assertEqual(('demo', 'demo'), (data(per_server)['tenant_id'],
                                            data(per_server)['user_id']))
        self.verify_sample('service-host_status-update.json', stale)
        self.verify_sample('instance-host_status-update.json', per_server)

        mark = self.rabbit.mark()
        self.nova.thaw('host-1')
        resumed = self.rabbit.wait_for(
            is_event('service.host_status.update', 'host-1', 'heartbeat_resumed'),
            15, 'heartbeat_resumed', after=mark)
        # from the heartbeat the watcher saw (its last_seen_up) to delivery
        delay = (resumed['received_at'] - parse_time(data(resumed)['last_seen_up']))
        self.measured('resumed heartbeat -> service.host_status.update',
                      delay.total_seconds())
        self.assertLess(delay.total_seconds(), 2)
        self.rabbit.wait_for(
            is_event('instance.host_status.update', uuid=uuid, reason='heartbeat_resumed'),
            5, 'instance.host_status.update resumed', after=mark)
        # each transition notified once
        ids = [data(m)['event_id'] for m in self.rabbit.matching(
            is_event('service.host_status.update'))]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertIn(data(stale)['event_id'], ids)

    def test_operator_changes_send_service_update(self):
        mark = self.rabbit.mark()
        resp = self.nova.service_action('disable-log-reason', 'host-2',
                                        disabled_reason='firmware')
        self.assertEqual(200, resp.status)
        acted = self.now()
        update = self.rabbit.wait_for(is_event('service.update', 'host-2'), 10,
                                      'service.update', after=mark)
        status = self.rabbit.wait_for(
            is_event('service.host_status.update', 'host-2', 'disabled'), 10, 'disabled',
            after=mark)
        self.measured('operator disable -> service.update',
                      (update['received_at'] - acted).total_seconds())
        self.assertLess((update['received_at'] - acted).total_seconds(), 2)
        self.assertEqual((True, 'firmware', False), tuple(
            data(update)[k] for k in ('disabled', 'disabled_reason', 'forced_down')))
        self.assertEqual(('MAINTENANCE', 'disabled'), tuple(
            data(status)[k] for k in ('new_status', 'admin_state')))
        self.verify_sample('service-update.json', update)
        self.assertEqual('nova-compute:host-2', update['publisher_id'])    # as Nova's

        # a change of the reason alone: Nova's notification, no transition
        mark = self.rabbit.mark()
        self.nova.service_action('disable-log-reason', 'host-2',
                                 disabled_reason='firmware, then BIOS')
        self.rabbit.wait_for(lambda m: is_event('service.update', 'host-2')(m)
                             and data(m)['disabled_reason'] == 'firmware, then BIOS', 10,
                             'service.update of the reason', after=mark)

        self.nova.service_action('force-down', 'host-2', forced_down=True)
        forced = self.rabbit.wait_for(
            is_event('service.host_status.update', 'host-2', 'forced_down'), 10,
            'forced_down')
        self.assertEqual(('MAINTENANCE', 'DOWN', 'forced-down'), tuple(
            data(forced)[k] for k in ('old_status', 'new_status', 'admin_state')))
        self.rabbit.wait_for(lambda m: is_event('service.update', 'host-2')(m)
                             and data(m)['forced_down'], 10, 'service.update forced_down')

        # the 2.53 form makes the same change, so the same notifications
        uuid = self.nova.request('GET', '/v2.1/os-services?host=host-2',
                                 version='2.53').json['services'][0]['id']
        mark = self.rabbit.mark()
        resp = self.nova.request('PUT', '/v2.1/os-services/' + uuid, version='2.53',
                                 body={'status': 'enabled', 'forced_down': False})
        self.assertEqual(200, resp.status, resp.raw)
        back = self.rabbit.wait_for(
            is_event('service.host_status.update', 'host-2', 'forced_up'), 10, 'forced_up',
            after=mark)
        self.assertEqual(('DOWN', 'UP', 'enabled'), tuple(
            data(back)[k] for k in ('old_status', 'new_status', 'admin_state')))
        self.rabbit.wait_for(lambda m: is_event('service.update', 'host-2')(m)
                             and not data(m)['forced_down'] and not data(m)['disabled'],
                             10, 'service.update after the 2.53 update', after=mark)

    def test_long_poll_answers_within_a_second_of_the_stored_transition(self):
        cursor = self.feed()['next']
        answer = {}

        def poll():
            # long polls one after the other, as a consumer runs them, until
            # host-1 goes stale (another host's event may come first)
            after = cursor
            deadline = time.monotonic() + DOWN_TIME + 30
            while time.monotonic() < deadline:
                body = self.feed('?wait=25&after=' + after)
                at = self.now()
                for event in body['events']:
                    if (event['host'], event['reason']) == ('host-1', 'heartbeat_stale'):
                        answer.update(event=event, at=at, next=body['next'])
                        return
                after = body['next']
        thread = threading.Thread(target=poll)
        thread.start()
        self.nova.freeze_outside_writes('host-1')
        thread.join(DOWN_TIME + 40)
        self.assertFalse(thread.is_alive())
        self.assertIn('event', answer, 'no heartbeat_stale for host-1 in the feed')
        delay = (answer['at'] - parse_time(answer['event']['at'])).total_seconds()
        self.measured('stored transition -> long-poll answer', delay)
        self.assertLess(delay, 1.0)
        # a wait with nothing new gives the same cursor back
        again = self.feed('?wait=0.5&after=' + answer['next'])
        if not again['events']:
            self.assertEqual(answer['next'], again['next'])

    def test_killing_the_active_watcher_hands_over(self):
        active = self.watcher_process()
        self.assertIn(':%d:' % active.pid, self.lease()['holder'])
        standby, log = backend.spawn(self, self.nova, 'watcher-2',
                                     ['nova.cmd.host_status_watcher'] + backend.config_files(
                                         self.nova, 'watcher-2.conf', ''))
        self.nova._wait(lambda: 'standing by' in open(log).read(), 30, 'standby started')
        cursor = self.feed()['next']
        mark = self.rabbit.mark()

        active.send_signal(signal.SIGKILL)
        killed = self.now()
        self.nova.freeze_outside_writes('host-1')    # a change while nobody is active
        self.nova._wait(lambda: ':%d:' % standby.pid in self.lease()['holder'],
                        DOWN_TIME + 10, 'the standby takes the lease')
        takeover = (self.lease()['acquired_at'] - killed).total_seconds()
        self.measured('watcher killed -> standby active', takeover)
        self.assertLess(takeover, DOWN_TIME + 2)

        stale = self.rabbit.wait_for(
            is_event('service.host_status.update', 'host-1', 'heartbeat_stale'),
            DOWN_TIME + 10, 'heartbeat_stale after failover', after=mark)
        self.assertIn('controller', stale['publisher_id'])
        after_kill = [e for e in self.feed('?after=' + cursor)['events']
                      if e['host'] == 'host-1']
        self.assertEqual([data(stale)['event_id']],
                         [e['id'] for e in after_kill if e['reason'] == 'heartbeat_stale'])
        everything = self.feed()['events']
        self.assertEqual(len(everything), len({e['id'] for e in everything}))
        # nothing lost, nothing twice: each host's transitions chain, every
        # one starting where the one before it ended
        for host in self.nova.host_names:
            chain = [e for e in everything if e['host'] == host]
            self.assertEqual('registered', chain[0]['reason'])
            for before, event in zip(chain, chain[1:]):
                self.assertEqual(before['new_status'], event['old_status'], chain)
                self.assertNotEqual((before['new_status'], before['liveness'],
                                     before['admin_state']),
                                    (event['new_status'], event['liveness'],
                                     event['admin_state']), chain)

    def test_long_polls_do_not_starve_the_api(self):
        # one API worker of 8 threads: at most 4 waits, 2 per project
        cursor = self.feed()['next']

        def wait(token):
            # a probe below may take a slot for a moment: then ask again
            while self.nova.request('GET', FEED + '?wait=15&after=' + cursor,
                                    token=token).status == 429:
                time.sleep(0.05)
        waits = [threading.Thread(target=wait, args=(token,))
                 for token in (func.DEMO, func.DEMO, 'alt:alt', 'alt:alt')]
        for thread in waits:
            thread.start()
        try:
            # a short probe from a third project: refused once all four wait
            self.nova._wait(lambda: self.nova.request(
                'GET', FEED + '?wait=0.1&after=' + cursor, token='third:third').status == 429,
                10, 'the worker cap')
            self.assertEqual(429, self.nova.request(
                'GET', FEED + '?wait=0.1&after=' + cursor, token=func.DEMO).status)
            # everything else is served while they wait
            self.assertEqual(200, self.nova.request('GET', '/v2.1/servers',
                                                    token=func.DEMO).status)
            self.feed('?after=' + cursor, token='third:third')      # no wait: at once
            self.assertTrue(all(thread.is_alive() for thread in waits))
        finally:
            for thread in waits:
                thread.join(30)
