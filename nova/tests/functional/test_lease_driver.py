"""The lease liveness driver against a real redis-server and a real etcd of
the test's own: membership, expiry on the backend's clock, repair after
expiry and after a backend restart, an unreachable or hung backend, and
no heartbeat reaching the SQL database."""
import datetime
import threading
import time

import sqlalchemy as sa
import testtools

import nova.conf
from nova.compute import manager
from nova.db import services as service_db
from nova.db import engine
from nova import exception
from nova.servicegroup.drivers import lease
from nova.servicegroup.drivers.lease import etcd_members
from nova.servicegroup.drivers.lease import redis_members
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import liveness_servers

CONF = nova.conf.CONF
DOWN_TIME = 3
WAIT = 30           # generous bound of every "eventually"


def service(host, forced_down=False, disabled=False):
    return {'host': host, 'binary': 'nova-compute', 'forced_down': forced_down,
            'disabled': disabled}


def eventually(predicate, what, timeout=WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError('timed out waiting for ' + what)


class _DriverTests:

    def setUp(self):
        super().setUp()
        self.server = self.useFixture(self.SERVER(self))
        self.server.in_service()
        self.configure(DOWN_TIME)

    def configure(self, service_down_time):
        for name, value, group in (('driver', 'lease', 'servicegroup'),
                                   ('backend_url', self.server.url, 'servicegroup'),
                                   ('service_down_time', service_down_time, None),
                                   ('report_interval', 1, None)):
            CONF.set_override(name, value, group=group)
            self.addCleanup(CONF.clear_override, name, group=group)
        self.driver = lease.LeaseDriver()

    def up(self, *hosts):
        return self.driver.hosts_up({host: service(host) for host in hosts})

    def heartbeating(self, host):
        """Run the heartbeat loop for ``host``; returns its stop event.
        Cleanup waits for the loop to return, not for the thread's join()
        (see _run_compute)."""
        stop, returned = threading.Event(), threading.Event()

        def loop():
            self.driver.heartbeat_loop(service(host), 1, stop)
            returned.set()
        threading.Thread(target=loop, daemon=True).start()
        self.addCleanup(lambda: self.assertTrue(returned.wait(WAIT), 'the loop never stopped'))
        self.addCleanup(stop.set)
        return stop

    def membership(self, host):
        return self.MEMBERS.Membership(self.driver.backend, host)

    # ------------------------------------------------------------------ tests

    def test_heartbeating_hosts_are_up_and_only_they(self):
        self.heartbeating('h1')
        self.heartbeating('h3')
        eventually(lambda: self.up('h1', 'h3') == {'h1', 'h3'}, 'h1 and h3 up')
        rows = {'h1': service('h1'), 'h2': service('h2'),
                'h3': service('h3', forced_down=True), 'h4': service('h4', disabled=True)}
        # forced down is down whatever the backend says; disabled is not
        # liveness (host_status shows MAINTENANCE from the row)
        self.assertEqual({'h1'}, self.driver.hosts_up(rows))
        self.assertEqual(set(), self.driver.hosts_up({}))
        # the host_status filter's question: every compute the database
        # knows (Redis asks for those) or the backend holds (etcd's cache)
        self.useFixture(nova_fixtures.Database())
        for host in ('h1', 'h2', 'h3'):
            service_db.service_register(host, 'nova-compute')
        self.assertEqual({'h1', 'h3'}, self.driver.all_hosts_up())

    def test_concurrent_requests_share_reads_and_all_get_the_answer(self):
        # gthread workers: many requests of one process read at once
        self.heartbeating('h1')
        eventually(lambda: self.up('h1') == {'h1'}, 'h1 up')
        answers, start = [], threading.Barrier(8)

        def request():
            start.wait(WAIT)
            for _ in range(20):
                try:
                    # a new driver per call, as servicegroup.API() makes one
                    answers.append(lease.LeaseDriver().hosts_up({'h1': service('h1')}))
                except exception.ServiceGroupUnavailable as exc:
                    answers.append(exc)
        threads = [threading.Thread(target=request) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT)
        self.assertEqual([{'h1'}] * 160, answers)

    def test_a_silent_member_is_dropped_by_the_backend(self):
        stop = self.heartbeating('h1')
        eventually(lambda: self.up('h1') == {'h1'}, 'h1 up')
        stop.set()
        self.assertTrue(self.server.holds('h1'))
        # the backend, not this process, decides: still up while it holds
        # the member, down once it let it go
        eventually(lambda: not self.server.holds('h1'), 'the backend to expire h1',
                   timeout=DOWN_TIME + WAIT)
        self.assertEqual(set(), self.up('h1'))

    def test_a_member_that_expired_joins_again_at_its_next_heartbeat(self):
        member = self.membership('h1')
        self.assertTrue(member.beat())           # joined
        self.assertFalse(member.beat())          # already a member
        # etcd's readers learn it from their watch, a moment later
        eventually(lambda: self.up('h1') == {'h1'}, 'h1 up')
        # a frozen compute: no heartbeat for longer than service_down_time
        eventually(lambda: self.up('h1') == set() and not self.server.holds('h1'),
                   'h1 to expire', timeout=DOWN_TIME + WAIT)
        self.assertTrue(member.beat())           # found gone, joined again
        eventually(lambda: self.up('h1') == {'h1'}, 'h1 up again')

    def test_after_a_backend_restart_only_hosts_heartbeating_since_are_up(self):
        # long enough that etcd's renewed leases outlive the restart
        self.configure(service_down_time=20)
        alive, dead = self.membership('alive'), self.membership('dead')
        alive.beat()
        dead.beat()
        eventually(lambda: self.up('alive', 'dead') == {'alive', 'dead'}, 'both up')
        self.server.restart()
        # until the live hosts have had a heartbeat's time to confirm, they
        # read UNKNOWN (never DOWN, never the dead one UP)
        eventually(lambda: self._answer() is None, 'UNKNOWN after the restart')
        # etcd still holds the dead host (its lease was renewed by the
        # restart): only the term keeps it from reading UP
        self.assertEqual(self.KEEPS_MEMBERS_ACROSS_RESTART, self.server.holds('dead'))
        alive.beat()
        # one that has beaten since reads up whichever hosts are asked with
        # it, so a show and the host_status filter agree (they did not: the
        # flaky RedisFaultsTest.test_backend_down, issue 23)
        eventually(lambda: self._known_up('alive') == {'alive'}, 'alive up')
        self.assertEqual({'alive'}, self._known_up('alive', 'dead'))
        self.assertEqual(set(), self._known_up('alive', 'dead', forced_down=True))
        answers = []
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and answers[-1:] != [{'alive'}]:
            answers.append(self._answer())
            time.sleep(0.05)
        self.assertEqual({'alive'}, answers[-1])
        self.assertEqual(set(), {answer and 'dead' in answer for answer in answers} - {None, False})

    def test_a_heartbeat_is_one_backend_operation(self):
        member = self.membership('h1')
        self.assertTrue(member.beat())          # joined
        before = self.server.operations()
        for _ in range(5):
            self.assertFalse(member.beat())
        self.assertEqual(5, self.server.operations() - before)

    def test_updated_at_is_the_last_heartbeat_on_the_backends_clock(self):
        member = self.membership('h1')
        before = self.server.clock()
        member.beat()
        after = self.server.clock()
        beat = self.driver.heartbeats({'h1': service('h1'), 'h2': service('h2')})
        self.assertEqual(['h1'], list(beat))
        resolution = self.CLOCK_RESOLUTION
        self.assertTrue(before - resolution <= beat['h1'] <= after + resolution,
                        (before, beat['h1'], after))

    def test_an_unreachable_backend_is_unknown_liveness_then_recovers(self):
        self.heartbeating('h1')
        eventually(lambda: self.up('h1') == {'h1'}, 'h1 up')
        self.server.kill()
        eventually(self._unavailable, 'ServiceGroupUnavailable')
        self.server.start()
        # the compute kept retrying: up again without restarting anything
        eventually(lambda: self._readable() and self.up('h1') == {'h1'}, 'h1 up again')

    def test_a_hung_backend_fails_reads_instead_of_holding_them(self):
        self.heartbeating('h1')
        eventually(lambda: self.up('h1') == {'h1'}, 'h1 up')
        self.server.freeze()
        self.addCleanup(self.server.thaw)
        # no read waits longer than the backend's bound (Redis: the socket
        # timeout; etcd: the watch is not confirmed past service_down_time/2)
        eventually(self._unavailable, 'ServiceGroupUnavailable')
        for _ in range(3):
            started = time.monotonic()
            self.assertTrue(self._unavailable())
            self.assertLess(time.monotonic() - started, self.driver.backend.timeout + 1)
        self.server.thaw()
        eventually(lambda: self._readable() and self.up('h1') == {'h1'}, 'h1 up again')

    def _answer(self):
        try:
            return self.up('alive', 'dead')
        except exception.ServiceGroupUnavailable:
            return None

    def _known_up(self, *hosts, forced_down=False):
        """The hosts read up, whether or not the others are unknown."""
        try:
            return self.driver.hosts_up({host: service(host, forced_down=forced_down)
                                         for host in hosts})
        except exception.ServiceGroupUnavailable as exc:
            return exc.hosts_up

    def _unavailable(self):
        try:
            self.up('h1')
        except exception.ServiceGroupUnavailable:
            return True
        return False

    def _readable(self):
        try:
            self.up('h1')
            return True
        except exception.ServiceGroupUnavailable:
            return False


class RedisDriverTest(_DriverTests, testtools.TestCase):
    SERVER = liveness_servers.Redis
    MEMBERS = redis_members
    KEEPS_MEMBERS_ACROSS_RESTART = False     # nothing on disk
    CLOCK_RESOLUTION = datetime.timedelta(0)

    def test_a_page_is_one_round_trip_however_many_members(self):
        for index in range(300):
            self.membership('m%d' % index).beat()
        page = {'m%d' % index: service('m%d' % index) for index in range(0, 300, 2)}
        before = {command: self.server.calls(command) for command in ('mget', 'time')}
        self.assertEqual(set(page), self.driver.hosts_up(page))
        self.assertEqual({'mget': 1, 'time': 1},
                         {command: self.server.calls(command) - before[command]
                          for command in before})


class EtcdDriverTest(_DriverTests, testtools.TestCase):
    SERVER = liveness_servers.Etcd
    MEMBERS = etcd_members
    KEEPS_MEMBERS_ACROSS_RESTART = True
    CLOCK_RESOLUTION = datetime.timedelta(seconds=1)    # a lease's TTL: whole seconds

    def test_a_page_is_read_from_the_watched_cache(self):
        self.membership('h1').beat()
        eventually(lambda: self.up('h1') == {'h1'}, 'h1 up')
        before = self.server.ranges()
        for _ in range(20):
            self.assertEqual({'h1'}, self.up('h1', 'h2'))
        self.assertEqual(before, self.server.ranges())


class NoSQLHeartbeatTest(testtools.TestCase):
    """nova-compute with the lease driver: its heartbeats reach the backend
    and not one UPDATE reaches the services table; with the db driver the
    same count is one per heartbeat."""

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.redis = self.useFixture(liveness_servers.Redis(self))
        for name, value, group in (('backend_url', self.redis.url, 'servicegroup'),
                                   ('service_down_time', DOWN_TIME, None),
                                   ('report_interval', 1, None)):
            CONF.set_override(name, value, group=group)
            self.addCleanup(CONF.clear_override, name, group=group)
        self.service_updates = []
        listen = (engine.get_engine(), 'before_cursor_execute', self._statement)
        sa.event.listen(*listen)
        self.addCleanup(sa.event.remove, *listen)

    def _statement(self, conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith('UPDATE SERVICES'):
            self.service_updates.append(statement)

    def _run_compute(self, driver, heartbeats_seen):
        """Run nova-compute for host h1 (registration, heartbeats, work
        polls) until ``heartbeats_seen()``; the UPDATEs of services seen."""
        CONF.set_override('driver', driver, group='servicegroup')
        self.addCleanup(CONF.clear_override, 'driver', group='servicegroup')
        compute = manager.ComputeManager('h1')
        compute.start()
        worker = threading.Thread(target=compute.run, daemon=True)
        worker.start()
        try:
            eventually(heartbeats_seen, 'three heartbeats')
        finally:
            # the heartbeat thread (a daemon) is not joined: after the lease
            # loop returns, join() can wait until a garbage collection
            # frees what its first beat left in a reference cycle
            compute.stop()
            worker.join(WAIT)
        return self.service_updates

    def test_lease_heartbeats_write_no_sql(self):
        self.assertEqual([], self._run_compute('lease', lambda: self.redis.heartbeats() >= 3))
        self.assertEqual({'h1'}, lease.LeaseDriver().hosts_up({'h1': service('h1')}))

    def test_the_count_sees_db_heartbeats(self):
        self.assertGreaterEqual(
            len(self._run_compute('db', lambda: len(self.service_updates) >= 3)), 3)

    def test_while_switching_drivers_both_get_heartbeats(self):
        CONF.set_override('tooz_also_db_heartbeat', True, group='servicegroup')
        self.addCleanup(CONF.clear_override, 'tooz_also_db_heartbeat', group='servicegroup')
        seen = self._run_compute('tooz', lambda: len(self.service_updates) >= 3
                                 and self.redis.heartbeats() >= 3)
        self.assertGreaterEqual(len(seen), 3)
        self.assertEqual({'h1'}, lease.LeaseDriver().hosts_up({'h1': service('h1')}))
