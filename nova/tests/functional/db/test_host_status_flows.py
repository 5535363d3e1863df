"""host_status end to end on each backend: the real nova-all-in-one (API
under gunicorn, nova-compute processes heartbeating every second) on a
database of its own, with the db liveness driver on SQLite, MariaDB and
PostgreSQL and with the tooz driver on a Redis and an etcd of the test's
own (SQLite holding operator state). A frozen compute turns UNKNOWN
service_down_time after its last heartbeat, judged on the database's clock
or by the backend dropping its membership:

    stestr --test-path nova/tests/functional/db run test_host_status_flows
    (prints "<backend>: heartbeat-to-UNKNOWN <seconds> s" per backend; it is
    also the test's "heartbeat-to-UNKNOWN" detail)
"""
import sys
import time

import testtools
from testtools import content

from nova.tests.functional.db import backend
from nova.tests.functional import liveness_servers

DOWN_TIME = 3


class _FlowTests:
    LIVENESS = None     # a liveness_servers fixture class for the tooz driver

    def setUp(self):
        super().setUp()
        url = None
        if self.LIVENESS is not None:
            self.liveness = self.useFixture(self.LIVENESS(self))
            url = self.liveness.url
        self.nova, self.peek, _ = backend.start(
            self, self.BACKEND, hosts=2, report_interval=1, service_down_time=DOWN_TIME,
            servicegroup_url=url)

    def _status(self, uuid):
        return self.nova.show(uuid).json['server']['host_status']

    def test_up_maintenance_down_unknown_and_back(self):
        uuid = self.nova.create_server_on('host-1')
        self.assertEqual('UP', self._status(uuid))

        reason = {'disabled_reason': 'firmware'}
        self.assertEqual(200, self.nova.service_action('disable-log-reason', 'host-1',
                                                       **reason).status)
        self.assertEqual('MAINTENANCE', self._status(uuid))
        self._next_heartbeat('host-1')      # heartbeats overwrite no flag
        self.assertEqual('MAINTENANCE', self._status(uuid))
        services = {s['host']: s for s in self.nova.services()}
        self.assertEqual(('disabled', 'firmware', 'up'),
                         tuple(services['host-1'][k] for k in
                               ('status', 'disabled_reason', 'state')))
        self.nova.service_action('enable', 'host-1')
        self.assertEqual('UP', self._status(uuid))

        self.nova.service_action('force-down', 'host-1', forced_down=True)
        self.assertEqual('DOWN', self._status(uuid))
        self._next_heartbeat('host-1')
        self.assertEqual('DOWN', self._status(uuid))
        self.nova.service_action('disable', 'host-1')
        self.assertEqual('DOWN', self._status(uuid))
        self.nova.service_action('force-down', 'host-1', forced_down=False)
        self.assertEqual('MAINTENANCE', self._status(uuid))
        self.nova.service_action('enable', 'host-1')
        self.assertEqual('UP', self._status(uuid))

        if self.LIVENESS is None:
            elapsed = self._seconds_from_last_heartbeat_to_unknown(uuid)
            self.addDetail('heartbeat-to-UNKNOWN', content.text_content('%.3f s' % elapsed))
            print('%s: heartbeat-to-UNKNOWN %.3f s (service_down_time %d s)'
                  % (self.BACKEND, elapsed, DOWN_TIME), file=sys.stderr)
        else:
            self._unknown_once_the_backend_drops_it(uuid)

        self.nova.thaw('host-1')
        self.nova.wait_for_host_status(uuid, 'UP', timeout=10)
        self.assertEqual('ACTIVE', self.nova.show(uuid).json['server']['status'])

    def _next_heartbeat(self, host):
        if self.LIVENESS is not None:
            # the backend counts every member's heartbeats: with two hosts
            # beating each second, three more include one of ``host``'s
            count = self.liveness.heartbeats()
            self.nova._wait(lambda: self.liveness.heartbeats() >= count + 3,
                            10, 'heartbeats in the backend')
            return
        count = self.peek.service(host)['report_count']
        self.nova._wait(lambda: self.peek.service(host)['report_count'] > count,
                        10, 'a heartbeat from %s' % host)

    def _seconds_from_last_heartbeat_to_unknown(self, uuid):
        """Freeze host-1's compute and watch it turn UNKNOWN, checking each
        answer against the heartbeat's age on the database's clock: UP only
        while the age read just before the request is within
        service_down_time, UNKNOWN only once the age read just after it is
        past. Returns that age at the first UNKNOWN."""
        self.nova.freeze('host-1')
        deadline = time.monotonic() + DOWN_TIME + 60     # a bound for a stuck test only
        while time.monotonic() < deadline:
            last = self.peek.service('host-1')['last_seen_up']
            before = (self.peek.now() - last).total_seconds()
            status = self._status(uuid)
            after = (self.peek.now() - last).total_seconds()
            if status == 'UNKNOWN':
                self.assertGreater(after, DOWN_TIME)
                return after
            self.assertEqual('UP', status)
            self.assertLessEqual(before, DOWN_TIME)
            time.sleep(0.05)
        self.fail('host-1 never turned UNKNOWN')


    def _unknown_once_the_backend_drops_it(self, uuid):
        """Freeze host-1's compute: UP only while the backend held its
        membership just before the request, UNKNOWN only once it no longer
        holds it just after; and the SQL row got no heartbeat."""
        row = self.peek.service('host-1')
        self.nova.freeze('host-1')
        deadline = time.monotonic() + DOWN_TIME + 60     # a bound for a stuck test only
        while time.monotonic() < deadline:
            held = self.liveness.holds('host-1')
            status = self._status(uuid)
            if status == 'UNKNOWN':
                self.assertFalse(self.liveness.holds('host-1'))
                break
            self.assertEqual('UP', status)
            self.assertTrue(held)
            time.sleep(0.05)
        else:
            self.fail('host-1 never turned UNKNOWN')
        after = self.peek.service('host-1')
        self.assertEqual((0, None), (after['report_count'], after['last_seen_up']))
        self.assertEqual(row['updated_at'], after['updated_at'])


class FlowsSQLiteTest(_FlowTests, testtools.TestCase):
    BACKEND = 'sqlite'


class FlowsMySQLTest(_FlowTests, testtools.TestCase):
    BACKEND = 'mysql'


class FlowsPostgreSQLTest(_FlowTests, testtools.TestCase):
    BACKEND = 'postgresql'


class FlowsRedisTest(_FlowTests, testtools.TestCase):
    BACKEND = 'sqlite'
    LIVENESS = liveness_servers.Redis


class FlowsEtcdTest(_FlowTests, testtools.TestCase):
    BACKEND = 'sqlite'
    LIVENESS = liveness_servers.Etcd
