"""Fencing without a cloud: the fencing file's mistakes are start errors
naming host and key; a fence agent is a real program run with key=value
lines on stdin; the brake; and the watcher, in process on SQLite, that
forces nothing down while the brake holds (also in the drill mode of
force_down_after_unknown, which once forced every host down in one tick
of a one-sided partition)."""
import datetime
import json
import os
import stat
import textwrap

import fixtures
import sqlalchemy as sa
import testtools

import nova
import nova.conf
from nova.compute import fence_agents
from nova.compute import fencing_brake
from nova.compute import host_status as hs
from nova.db import services as service_db
from nova.db import engine
from nova.db import fencing as fencing_store
from nova.db import host_status_events as store
from nova.db.dbtime import db_now
from nova.db.models import services
from nova.notifications import fencer
from nova.notifications import host_status_watcher
from nova.tests import fixtures as nova_fixtures
from nova.tests.unit.test_host_status_watcher import notifier, sent

CONF = nova.conf.CONF

# a fence agent: records its stdin, answers as its ANSWER file says
AGENT = textwrap.dedent('''\
    #!/bin/sh
    cat > "$(dirname "$0")/stdin"
    read -r code < "$(dirname "$0")/answer"
    [ "$code" = hang ] && exec sleep 60
    exit "$code"
    ''')


class FencingFileTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.agent = os.path.join(self.dir, 'fence_test')
        with open(self.agent, 'w') as f:
            f.write(AGENT)
        os.chmod(self.agent, stat.S_IRWXU)

    def load(self, text):
        path = os.path.join(self.dir, 'fencing.yaml')
        with open(path, 'w') as f:
            f.write(text)
        return fence_agents.load(path, 60)

    def assertRefused(self, text, *fragments):
        exc = self.assertRaises(fence_agents.FencingConfigError, self.load, text)
        for fragment in fragments:
            self.assertIn(fragment, str(exc))

    def test_mistakes_name_the_host_and_the_key(self):
        self.assertRefused('hosts:\n  c1: {agent: fence_nosuch}\n',
                           'host c1', 'key agent', 'unknown agent fence_nosuch')
        self.assertRefused('hosts:\n  c2: {agent: %s, timeout: 0}\n' % self.agent,
                           'host c2', 'key timeout', 'above 0')
        self.assertRefused('hosts:\n  c3: {options: {ip: 1.2.3.4}}\n',
                           'host c3', 'key agent is missing')
        self.assertRefused('hosts:\n  c4: {agent: %s, timout: 3}\n' % self.agent,
                           'host c4', 'unknown key timout')
        self.assertRefused('hosts:\n  c5: {agent: %s, options: {action: off}}\n' % self.agent,
                           'host c5', 'key options')
        self.assertRefused('hosts: [c6]\n', 'mapping "hosts"')
        agents = self.load('hosts:\n  c7: {agent: %s}\n' % self.agent)
        exc = self.assertRaises(fence_agents.FencingConfigError, fence_agents.check_hosts,
                                agents, ['c7', 'c8'], 'fencing.yaml')
        self.assertIn('host c8', str(exc))
        self.assertIn('no fence agent', str(exc))

    def answer(self, code):
        with open(os.path.join(self.dir, 'answer'), 'w') as f:
            f.write(code + '\n')

    def test_an_agent_gets_its_options_on_stdin_and_answers_by_exit_code(self):
        agents = self.load('hosts:\n  c1:\n    agent: %s\n    timeout: 1\n    options:\n'
                           '      ip: 10.0.0.1\n      ssl_insecure: true\n'
                           '      ssl: false\n' % self.agent)
        self.answer('2')
        result = fence_agents.run(agents['c1'], 'status')
        self.assertEqual((2, False), (result.code, result.timed_out))
        with open(os.path.join(self.dir, 'stdin')) as f:
            # false is left out: fence agents read "ssl=0" as --ssl given
            self.assertEqual('action=status\nip=10.0.0.1\nssl_insecure=1\n', f.read())
        self.answer('hang')
        result = fence_agents.run(agents['c1'], 'off')
        self.assertEqual((None, True), (result.code, result.timed_out))


class BrakeTest(testtools.TestCase):

    def test_the_share_of_enabled_hosts_decides(self):
        up, unknown = hs.UP, hs.UNKNOWN
        self.assertIsNone(fencing_brake.reason({'a': up, 'b': up, 'c': unknown}, False, 0.5))
        self.assertIn('2 of 3', fencing_brake.reason(
            {'a': up, 'b': unknown, 'c': unknown}, False, 0.5))
        # disabled and fenced hosts do not count
        self.assertIsNone(fencing_brake.reason(
            {'a': up, 'b': unknown, 'c': hs.MAINTENANCE, 'd': hs.DOWN}, False, 0.5))
        # every lease gone at once: cannot tell, whatever the threshold
        self.assertIn('every enabled', fencing_brake.reason(
            {'a': unknown, 'b': unknown}, False, 1.0))
        self.assertIn('liveness backend', fencing_brake.reason({'a': up}, True, 0.5))


class WatcherBrakeTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.useFixture(fixtures.FakeLogger())
        from oslo_messaging.notify import _impl_test
        _impl_test.reset()
        self.addCleanup(_impl_test.reset)
        for host in ('host-1', 'host-2', 'host-3'):
            nova_fixtures.add_service(host)

    @staticmethod
    def make_stale(*hosts):
        with engine.writer() as conn:
            seen = conn.scalar(sa.select(db_now())) - datetime.timedelta(hours=1)
            conn.execute(sa.update(services).where(services.c.host.in_(hosts)).values(
                last_seen_up=seen, updated_at=seen))

    def test_a_one_sided_partition_forces_nothing_down(self):
        CONF.set_override('force_down_after_unknown', 0, group='host_status_watcher')
        self.addCleanup(CONF.clear_override, 'force_down_after_unknown',
                        group='host_status_watcher')
        watcher = host_status_watcher.Watcher(notifier=notifier(), holder='w')
        watcher.tick()
        self.make_stale('host-1', 'host-2', 'host-3')    # every heartbeat lost at once
        for _ in range(3):
            watcher.tick()
        self.assertFalse(any(row['forced_down'] for row in service_db.service_list()))
        reasons = [e['reason'] for e in store.undelivered()]
        self.assertEqual(1, reasons.count(fencing_store.BRAKE_ENGAGED))
        for event in store.undelivered():
            watcher.deliver(event)
            store.mark_delivered(event['id'])
        self.assertIn('service.fence_brake.engage', [kind for kind, _ in sent()])
        self.assertTrue(watcher._braked())

    def test_fencing_refuses_the_drill_options_at_start(self):
        CONF.set_override('enabled', True, group='fencing')
        self.addCleanup(CONF.clear_override, 'enabled', group='fencing')
        for name in ('force_down_after_unknown', 'notify_after_unknown'):
            CONF.set_override(name, 10, group='host_status_watcher')
            exc = self.assertRaises(fence_agents.FencingConfigError, fencer.check_config)
            self.assertIn('[host_status_watcher] %s must be unset' % name, str(exc))
            CONF.clear_override(name, group='host_status_watcher')
        exc = self.assertRaises(fence_agents.FencingConfigError, fencer.check_config)
        self.assertIn('config_file is not set', str(exc))


    def test_without_fencing_a_delay_shorter_than_a_late_beat_is_refused(self):
        CONF.set_override('report_interval', 2)
        self.addCleanup(CONF.clear_override, 'report_interval')
        for name in ('force_down_after_unknown', 'notify_after_unknown'):
            self.addCleanup(CONF.clear_override, name, group='host_status_watcher')
            CONF.set_override(name, 3.5, group='host_status_watcher')
            exc = self.assertRaises(fence_agents.FencingConfigError, fencer.check_config)
            self.assertIn('[host_status_watcher] %s = 3.5 is below 4 s' % name, str(exc))
            CONF.set_override(name, 4, group='host_status_watcher')
            self.assertIsNone(fencer.check_config())


class SamplesTest(testtools.TestCase):
    """The documented samples (doc/source/notification_samples) are what the
    watcher sends for each fencing event, but for ids and times."""

    def test_each_fencing_notification_matches_its_sample(self):
        samples = os.path.join(os.path.dirname(nova.__file__), '..', 'doc', 'source',
                               'notification_samples')
        at = datetime.datetime(2026, 12, 2, 14, 7, 22, 876000)
        for reason, (event_type, payload) in host_status_watcher.FENCING_EVENT_TYPES.items():
            host = None if reason in fencing_store.BRAKE_REASONS else 'host-1'
            sent_payload = payload({'uuid': 'u', 'host': host,
                                    'binary': host and 'nova-compute', 'reason': reason,
                                    'at': at})
            with open(os.path.join(samples, event_type.replace('.', '-') + '.json')) as f:
                sample = json.load(f)
            self.assertEqual(event_type, sample['event_type'])
            self.assertEqual(
                {k: v for k, v in sample['payload'].items() if k != 'nova_object.data'},
                {k: v for k, v in sent_payload.items() if k != 'nova_object.data'})
            data = sample['payload']['nova_object.data']
            self.assertEqual(set(data), set(sent_payload['nova_object.data']), event_type)
            self.assertEqual(reason, data['reason'])
