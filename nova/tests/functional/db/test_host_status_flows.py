"""host_status end to end on each backend: the real nova-all-in-one (API
under gunicorn, nova-compute processes heartbeating every second) on a
database of its own. A frozen compute turns UNKNOWN service_down_time after
its last heartbeat, measured on the database's clock:

    stestr --test-path nova/tests/functional/db run test_host_status_flows
    (prints "<backend>: heartbeat-to-UNKNOWN <seconds> s" per backend; it is
    also the test's "heartbeat-to-UNKNOWN" detail)
"""
import sys
import time

import testtools
from testtools import content

from nova.tests.functional.db import backend

DOWN_TIME = 3


class _FlowTests:

    def setUp(self):
        super().setUp()
        self.nova, self.peek, _ = backend.start(
            self, self.BACKEND, hosts=2, report_interval=1, service_down_time=DOWN_TIME)

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

        elapsed = self._seconds_from_last_heartbeat_to_unknown(uuid)
        self.addDetail('heartbeat-to-UNKNOWN', content.text_content('%.3f s' % elapsed))
        print('%s: heartbeat-to-UNKNOWN %.3f s (service_down_time %d s)'
              % (self.BACKEND, elapsed, DOWN_TIME), file=sys.stderr)

        self.nova.thaw('host-1')
        self.nova.wait_for_host_status(uuid, 'UP', timeout=10)
        self.assertEqual('ACTIVE', self.nova.show(uuid).json['server']['status'])

    def _next_heartbeat(self, host):
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


class FlowsSQLiteTest(_FlowTests, testtools.TestCase):
    BACKEND = 'sqlite'


class FlowsMySQLTest(_FlowTests, testtools.TestCase):
    BACKEND = 'mysql'


class FlowsPostgreSQLTest(_FlowTests, testtools.TestCase):
    BACKEND = 'postgresql'
