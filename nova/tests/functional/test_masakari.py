"""OpenStack Masakari 22, unmodified, recovers a killed host of the
all-in-one end to end: Keystone 30 (keystone_server), masakari-api and
masakari-engine (masakari_server), the all-in-one behind keystonemiddleware
with the compute endpoint in the catalog. One of each for the class.

The host-status watcher as Masakari's host monitor is tested here too, in
process on a database of its own, sending to the same Masakari for host-4
and host-5 (live hosts of the all-in-one: Masakari's recoveries of them
find their computes still in use and move nothing).

The compute of host-1 is SIGKILLed with servers active, stopped and in
error; the test fences it as a fencing agent does (PUT /os-services/{id}
forced_down at 2.53) and sends the COMPUTE_HOST notification that
masakari-monitors would. Masakari disables the service, locks, evacuates,
stops and unlocks the servers through the compute API at 2.53.
"""
import datetime
import json
import time

import fixtures
import sqlalchemy as sa
from testtools import content

import nova.conf
from nova.api.openstack import api_version_request as avr
from nova.db import services as service_db
from nova.db import engine
from nova.db import host_status_events as store
from nova.db.dbtime import db_now
from nova.db.models import host_status_events, services
from nova.notifications import host_status_watcher
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import fixtures as func
from nova.tests.functional import keystone_server
from nova.tests.functional import masakari_server
from nova.tests.functional import server_actions

ADMIN, DEMO = func.ADMIN, func.DEMO
SHUTDOWN, RUNNING = 4, 1
V253 = str(avr.MAX_VERSION)
CONF = nova.conf.CONF
FINAL = ('finished', 'error', 'failed', 'ignored')


class MasakariRecoveryTest(func.SharedAllInOneTestCase):

    @classmethod
    def setUpClass(cls):
        cls.keystone = keystone_server.Keystone()
        cls.keystone.setUp()
        try:
            cls.masakari = masakari_server.Masakari(cls.keystone)
            cls.masakari.setUp()
            cls.admin = cls.keystone.connect('admin', 'admin')
            tokens = {ADMIN: cls.admin.session.get_token(),
                      DEMO: cls.keystone.connect('demo', 'demo').session.get_token()}
            cls.ALL_IN_ONE = dict(hosts=5, report_interval=1, service_down_time=6,
                                  extra_config=cls.keystone.authtoken_config(),
                                  tokens=tokens, ready_timeout=180)
            super().setUpClass()
        except BaseException:
            cls._stop_services()
            raise

    @classmethod
    def _stop_services(cls):
        try:
            if getattr(cls, 'masakari', None) is not None:
                cls.masakari.cleanUp()
        finally:
            cls.keystone.cleanUp()

    @classmethod
    def seed_class(cls):
        cls.keystone.register('compute', 'nova', cls.nova.url + '/v2.1')
        cls.segment = cls.masakari.segment(cls.admin, 'all-in-one', cls.nova.host_names)
        cls.masakari_hosts = {h.name: h for h in cls.admin.instance_ha.hosts(cls.segment.uuid)}

    @classmethod
    def tearDownClass(cls):
        try:
            super().tearDownClass()
        finally:
            cls._stop_services()

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)
        self.addOnException(lambda exc_info: self.addDetail(
            'masakari', content.text_content(self.masakari.logs())))

    def servers_on(self, source):
        """{uuid: (status, vm_state, power_state) expected once recovered}:
        two active, one stopped, one in error (Masakari stops a server it
        evacuated from error, and resets it to error)."""
        nova = self.nova
        expected = {}
        for name in ('active-1', 'active-2'):
            expected[nova.create_server_on(source, name=name)] = ('ACTIVE', 'active', RUNNING)
        stopped = nova.create_server_on(source, name='stopped')
        server_actions.act(nova, stopped, {'os-stop': None}, DEMO)
        server_actions.wait_for_state(nova, stopped, ('SHUTOFF', 'stopped', None, SHUTDOWN, source))
        expected[stopped] = ('SHUTOFF', 'stopped', SHUTDOWN)
        failed = nova.create_server_on(source, name='failed')
        server_actions.act(nova, failed, {'os-resetState': {'state': 'error'}})
        expected[failed] = ('ERROR', 'error', SHUTDOWN)
        return expected

    def snapshot(self):
        """What a recovery of host-1 must not touch: every other server as
        shown, every other service."""
        servers = self.nova.request('GET', '/v2.1/servers/detail?all_tenants=1',
                                    version=V253).json['servers']
        services = self.nova.request('GET', '/v2.1/os-services', version=V253).json['services']
        return ({s['id']: (s['status'], s['OS-EXT-SRV-ATTR:host'], s['updated'], s['locked'])
                 for s in servers},
                {s['host']: (s['status'], s['state'], s['forced_down'], s['disabled_reason'])
                 for s in services})

    def test_masakari_recovers_every_server_of_a_killed_fenced_host(self):
        nova = self.nova
        expected = self.servers_on('host-1')
        bystander = nova.create_server_on('host-2', name='bystander')
        before_servers, before_services = self.snapshot()

        nova.compute_process('host-1').kill()                # SIGKILL
        service = [s for s in nova.request('GET', '/v2.1/os-services?host=host-1',
                                           version=V253).json['services']
                   if s['binary'] == 'nova-compute'][0]
        resp = nova.request('PUT', '/v2.1/os-services/%s' % service['id'], version=V253,
                            body={'forced_down': True})
        self.assertEqual(200, resp.status, resp.raw)
        notification = self.admin.instance_ha.create_notification(
            type='COMPUTE_HOST', hostname='host-1',
            generated_time=datetime.datetime.utcnow().isoformat(),
            payload={'event': 'STOPPED', 'host_status': 'NORMAL',
                     'cluster_status': 'OFFLINE'})
        done = self.masakari.wait_for_notification(
            self.admin, notification.notification_uuid, ('finished', 'error', 'failed'))
        self.assertEqual('finished', done.status,
                         json.dumps(done.recovery_workflow_details, default=str))

        listed = nova.request('GET', '/v2.1/servers/detail?all_tenants=1',
                              version=V253).json['servers']
        for uuid, (status, vm_state, power_state) in expected.items():
            server = nova.request('GET', '/v2.1/servers/%s' % uuid,
                                  version=V253).json['server']
            host = server['OS-EXT-SRV-ATTR:host']
            self.assertIn(host, ('host-2', 'host-3', 'host-4', 'host-5'), uuid)
            self.assertEqual(host, server['OS-EXT-SRV-ATTR:hypervisor_hostname'])
            self.assertEqual((status, vm_state, None, power_state, 'UP', False), (
                server['status'], server['OS-EXT-STS:vm_state'],
                server['OS-EXT-STS:task_state'], server['OS-EXT-STS:power_state'],
                server['host_status'], server['locked']), uuid)
            self.assertEqual(1, [s['id'] for s in listed].count(uuid))
            self.assertEqual({uuid: power_state}, {
                k: v for k, v in server_actions.guests(nova, host).items() if k == uuid})
        # the dead host: disabled with Masakari's reason, still forced down
        # (the fence's to lift), running nothing the API knows of
        after_servers, after_services = self.snapshot()
        self.assertEqual(('disabled', 'down', True, masakari_server.DISABLE_REASON),
                         after_services['host-1'])
        self.assertNotIn('host-1', [s[1] for s in after_servers.values()])
        # nothing else changed
        self.assertEqual({h: v for h, v in before_services.items() if h != 'host-1'},
                         {h: v for h, v in after_services.items() if h != 'host-1'})
        self.assertEqual({k: v for k, v in before_servers.items() if k not in expected},
                         {k: v for k, v in after_servers.items() if k not in expected})
        self.assertIn(bystander, after_servers)
        self.assertEqual(set(before_servers), set(after_servers))


    # ------------------------------------------------ the watcher as monitor

    def in_process_watcher(self, notify_after_unknown=None):
        """A database of its own with host-4 and host-5 up, and a function
        making watchers on it that notify this class's Masakari."""
        self.useFixture(fixtures.FakeLogger())
        self.useFixture(nova_fixtures.Database())
        for name, value in (('notify_masakari', True),
                            ('notify_after_unknown', notify_after_unknown)):
            CONF.set_override(name, value, group='host_status_watcher')
            self.addCleanup(CONF.clear_override, name, group='host_status_watcher')
        for host in ('host-4', 'host-5'):
            nova_fixtures.add_service(host)

        def watcher(holder):
            return host_status_watcher.Watcher(notifier=_Discard(), holder=holder,
                                               masakari=self.admin)
        return watcher

    def notifications_of(self, host):
        return [n for n in self.admin.instance_ha.notifications(
                source_host_uuid=self.masakari_hosts[host].uuid)]

    def settle(self, host):
        """Wait for Masakari to finish what it started for ``host``, so that
        its engine is idle for the next test. The host stays on maintenance
        in Masakari (a recovery that moved nothing may end ``error`` and keep
        it in use): no later test sends for it again."""
        for notification in self.notifications_of(host):
            self.masakari.wait_for_notification(self.admin, notification.notification_uuid,
                                                FINAL)

    def test_watcher_notifies_a_forced_down_host_once_across_a_takeover(self):
        watcher = self.in_process_watcher()
        first = watcher('first')
        first.tick()                                   # registered UP
        self.assertTrue(first.host_monitor.run_once())
        self.assertEqual([], self.notifications_of('host-4'))
        service_db.service_update('host-4', 'nova-compute', forced_down=True)
        first.tick()                                   # forced_down: DOWN
        (event,) = store.host_monitor_pending('first', 5, ('DOWN',))
        # the first watcher sends, and dies before it records the delivery
        self.assertEqual(store.SENT, first.host_monitor.send(event))
        store.release_lease('first')

        second = watcher('second')
        second.tick()
        self.assertTrue(second.host_monitor.run_once())
        # its resend is the same notification: Masakari refuses it
        (sent,) = self.notifications_of('host-4')
        self.assertEqual(('COMPUTE_HOST', 'STOPPED'), (sent.type, sent.payload['event']))
        settled = self.event(event['id'])
        self.assertEqual(store.REFUSED, settled['host_monitor_result'])
        # nothing more, from either watcher: the first lost the lease
        self.assertTrue(second.host_monitor.run_once())
        self.assertFalse(first.host_monitor.run_once())
        self.assertEqual(1, len(self.notifications_of('host-4')))
        self.settle('host-4')

    def test_watcher_on_unknown_only_after_the_delay_and_once_per_outage(self):
        watcher = self.in_process_watcher(notify_after_unknown=5)('only')
        watcher.tick()
        self.make_stale('host-5')
        watcher.tick()                                 # heartbeat_stale: UNKNOWN
        (event,) = store.host_monitor_pending('only', 5, ('UNKNOWN',))
        self.assertLess(event['age'], 5)
        self.assertTrue(watcher.host_monitor.run_once())
        self.assertEqual([], self.notifications_of('host-5'))
        deadline = time.monotonic() + 30
        while self.event(event['id'])['host_monitor_at'] is None:
            self.assertLess(time.monotonic(), deadline, 'not sent after the delay')
            time.sleep(0.2)
            watcher.host_monitor.run_once()
        self.assertEqual(store.SENT, self.event(event['id'])['host_monitor_result'])
        # the fence comes later: the same outage, not notified again
        service_db.service_update('host-5', 'nova-compute', forced_down=True)
        watcher.tick()
        (down,) = store.host_monitor_pending('only', 5, ('DOWN',))
        watcher.host_monitor.run_once()
        self.assertEqual(store.COVERED, self.event(down['id'])['host_monitor_result'])
        self.assertEqual(1, len(self.notifications_of('host-5')))
        self.settle('host-5')

    def test_watcher_without_the_delay_never_notifies_unknown(self):
        watcher = self.in_process_watcher()('only')
        watcher.tick()
        self.make_stale('host-4')
        self.make_stale('host-5')
        watcher.tick()
        self.assertEqual(2, len(store.host_monitor_pending('only', 5, ('UNKNOWN',))))
        self.assertTrue(watcher.host_monitor.run_once())
        self.assertEqual([], store.host_monitor_pending('only', 5, ('DOWN',)))
        self.assertEqual([], [e for e in self.events() if e['host_monitor_at'] is not None])

    @staticmethod
    def make_stale(host):
        with engine.writer() as conn:
            seen = conn.scalar(sa.select(db_now())) - datetime.timedelta(hours=1)
            conn.execute(sa.update(services).where(services.c.host == host).values(
                last_seen_up=seen, updated_at=seen))

    @staticmethod
    def events():
        with engine.reader() as conn:
            return conn.execute(sa.select(host_status_events)).mappings().all()

    def event(self, event_id):
        (row,) = [e for e in self.events() if e['id'] == event_id]
        return row


class _Discard:
    """The watcher's oslo.messaging notifier, unused here."""

    def info(self, *args):
        pass
