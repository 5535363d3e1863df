"""The database goes away and comes back, on MariaDB and PostgreSQL, with the
real nova-all-in-one running: connections killed server-side are replaced
without a user noticing; while the server cannot be reached the API answers
503 serviceUnavailable and recovers by itself, the computes survive and
heartbeat again, and no write the API acknowledged is lost.

The servers are shared with other test workers, so they are never stopped:
connections are killed with KILL / pg_terminate_backend, and "away" is a
TcpProxy between the product and the server, cut and restored."""
import os
import threading
import time

import psutil
import testtools

from nova.tests.functional import fixtures as func
from nova.tests.functional.db import backend

DOWN_TIME = 3
BOUND = 2          # [database] response_timeout of the hang test
MARGIN = 15        # a loaded CI machine: the assertion is the bound, not a figure
READS = ('/v2.1/servers/%s', '/v2.1/servers/detail?all_tenants=1', '/v2.1/os-services')


class _ResilienceTests:

    def _start(self, **kwargs):
        self.nova, self.peek, self.proxy = backend.start(
            self, self.BACKEND, hosts=2, report_interval=1, service_down_time=DOWN_TIME,
            **kwargs)

    def _reads(self, uuid):
        return [self.nova.request('GET', path % uuid if '%s' in path else path,
                                  version='2.16').status for path in READS]

    def _heartbeats_resume(self):
        counts = {h: self.peek.service(h)['report_count'] for h in self.nova.host_names}
        self.nova._wait(lambda: all(self.peek.service(h)['report_count'] > counts[h]
                                    for h in counts), 15, 'heartbeats from every host')

    def _compute_log(self, host):
        path = os.path.join(self.nova.data_dir, 'logs', 'nova-compute-%s.log' % host)
        with open(path, errors='replace') as f:
            return f.read()

    def _computes_alive(self):
        for host in self.nova.host_names:
            process = self.nova.compute_process(host)   # LookupError once it is gone
            self.assertNotEqual(psutil.STATUS_ZOMBIE, process.status(), host)

    def test_connections_killed_server_side_go_unnoticed(self):
        self._start()
        uuid = self.nova.create_server()
        self.assertGreater(self.peek.kill_connections(), 0)
        self.assertEqual([200] * 3, self._reads(uuid))
        self.assertEqual(200, self.nova.service_action('disable', 'host-2').status)

        # Killed again and again while clients read: every read is answered.
        statuses = []
        stop = threading.Event()

        def read():
            while not stop.is_set():
                statuses.extend(self._reads(uuid))
        reader = threading.Thread(target=read)
        reader.start()
        try:
            for _ in range(6):
                time.sleep(0.5)
                self.peek.kill_connections()
        finally:
            stop.set()
            reader.join(30)
        self.assertGreater(len(statuses), 10)
        self.assertEqual({200}, set(statuses))

        self._heartbeats_resume()
        self._computes_alive()
        self.assertEqual('UP', self.nova.show(uuid).json['server']['host_status'])
        self.nova.service_action('enable', 'host-2')
        self.nova.create_server(name='after-kills')

    def test_database_away_answers_503_then_recovers_by_itself(self):
        self._start(through_proxy=True)
        kept = self.nova.create_server()
        self.proxy.stop()

        for path in READS:
            resp = self.nova.request('GET', path % kept if '%s' in path else path,
                                     version='2.16')
            self.assertEqual(503, resp.status, path)
            self.assertEqual(['serviceUnavailable'], list(resp.json), path)
            self.assertEqual(503, resp.json['serviceUnavailable']['code'])
            self.assertEqual('compute 2.16', resp.header('OpenStack-API-Version'))
        create = self.nova.request('POST', '/v2.1/servers', token=func.DEMO, body={
            'server': {'name': 'nope', 'imageRef': func.IMAGE, 'flavorRef': '1'}})
        self.assertEqual(503, create.status)
        self.assertEqual(503, self.nova.service_action('disable', 'host-1').status)

        time.sleep(DOWN_TIME + 1)          # every heartbeat fails meanwhile
        self._computes_alive()
        self.proxy.start()

        self.nova._wait(lambda: self._reads(kept) == [200] * 3, 15, 'the API back')
        self.nova.wait_for_host_status(kept, 'UP', timeout=15)
        self._heartbeats_resume()
        states = {s['host']: (s['status'], s['state']) for s in self.nova.services()}
        self.assertEqual({h: ('enabled', 'up') for h in self.nova.host_names}, states)
        self.assertEqual('ACTIVE', self.nova.show(kept).json['server']['status'])
        self.nova.create_server(name='after-outage')

    def test_hung_database_answers_503_within_the_bound_then_recovers(self):
        # accepts connections, answers nothing: without a bound each request
        # waited until gunicorn killed its worker (60 s), heartbeats for ever
        self._start(through_proxy=True,
                    extra_config='response_timeout = %d\n' % BOUND)
        kept = self.nova.create_server()
        self.proxy.hang()
        requests = [('GET', path % kept if '%s' in path else path, None, 3)
                    for path in READS]    # a read is tried once more: 3 bounds
        requests += [
            ('POST', '/v2.1/servers', {'server': {
                'name': 'nope', 'imageRef': func.IMAGE, 'flavorRef': '1'}}, 2),
            ('PUT', '/v2.1/os-services/disable',
             {'host': 'host-1', 'binary': 'nova-compute'}, 2)]
        for method, path, body, bounds in requests:
            started = time.monotonic()
            resp = self.nova.request(method, path, version='2.16', body=body,
                                     token=func.DEMO if method == 'POST' else func.ADMIN)
            took = time.monotonic() - started
            self.assertEqual(503, resp.status, path)
            self.assertEqual(['serviceUnavailable'], list(resp.json), path)
            self.assertEqual('compute 2.16', resp.header('OpenStack-API-Version'))
            self.assertLess(took, bounds * BOUND + MARGIN, path)

        # every compute's heartbeat gave up meanwhile (unbounded, it would
        # simply still be waiting), and the computes live on
        for host in self.nova.host_names:
            self.nova._wait(lambda: 'heartbeat failed' in self._compute_log(host),
                            2 * BOUND + MARGIN, 'a failed heartbeat on %s' % host)
        self._computes_alive()
        self.proxy.resume()

        # nothing restarted: the same processes answer and heartbeat again
        self.nova._wait(lambda: self._reads(kept) == [200] * 3, 30, 'the API back')
        self._heartbeats_resume()
        self.nova.wait_for_host_status(kept, 'UP', timeout=15)
        states = {s['host']: (s['status'], s['state']) for s in self.nova.services()}
        self.assertEqual({h: ('enabled', 'up') for h in self.nova.host_names}, states)
        self.nova.create_server(name='after-hang')

    def test_no_acknowledged_write_is_lost_while_the_database_flaps(self):
        self._start(through_proxy=True)
        created, reasons, statuses = [], [], []
        stop = threading.Event()

        def write():
            index = 0
            while not stop.is_set():
                index += 1
                resp = self.nova.request('POST', '/v2.1/servers', token=func.DEMO, body={
                    'server': {'name': 'w%d' % index, 'imageRef': func.IMAGE,
                               'flavorRef': '1'}})
                statuses.append(resp.status)
                if resp.status == 202:
                    created.append(resp.json['server']['id'])
                resp = self.nova.service_action('disable-log-reason', 'host-1',
                                                disabled_reason='r%d' % index)
                statuses.append(resp.status)
                reasons.append((index, resp.status == 200))
        writer = threading.Thread(target=write)
        writer.start()
        try:
            for _ in range(4):
                time.sleep(0.6)
                self.proxy.stop()
                time.sleep(0.4)
                self.proxy.start()
        finally:
            stop.set()
            writer.join(60)

        self.assertEqual(set(), set(statuses) - {200, 202, 503})
        self.assertIn(503, statuses)
        self.assertTrue(created)
        self.nova._wait(lambda: self._reads(created[0]) == [200] * 3, 15, 'the API back')
        for uuid in created:
            self.assertEqual(200, self.nova.show(uuid).status, uuid)
        # the reason shown is the last acknowledged one, or one sent after it
        # whose answer was lost with the connection
        last_acked = max(i for i, ok in reasons if ok)
        shown = {s['host']: s for s in self.nova.services()}['host-1']['disabled_reason']
        self.assertIn(shown, ['r%d' % i for i, _ in reasons if i >= last_acked])
        self.nova.service_action('enable', 'host-1')
        self._heartbeats_resume()
        self._computes_alive()
        detail = self.nova.request('GET', '/v2.1/servers/detail?all_tenants=1').json['servers']
        self.assertTrue(set(created) <= {s['id'] for s in detail})


class ResilienceMySQLTest(_ResilienceTests, testtools.TestCase):
    BACKEND = 'mysql'


class ResiliencePostgreSQLTest(_ResilienceTests, testtools.TestCase):
    BACKEND = 'postgresql'
