"""os-services at 2.53 end to end, on the real all-in-one: a change made
through ``PUT /os-services/{service_id}`` reaches the scheduler,
``host_status`` and the host status watcher as the action form's does, and
a deleted compute service carries on unseen until its nova-compute
restarts and registers a new record (Nova's behaviour)."""
import os
import subprocess

from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO
EVENTS = '/v2.1/os-host-status-events'


class ServicesByUuidTest(func.SharedAllInOneTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def uuids(self):
        resp = self.nova.request('GET', '/v2.1/os-services', version='2.53')
        self.assertEqual(200, resp.status, resp.raw)
        return {s['host']: s['id'] for s in resp.json['services']}

    def put(self, uuid, **body):
        resp = self.nova.request('PUT', '/v2.1/os-services/' + uuid, version='2.53', body=body)
        self.assertEqual(200, resp.status, resp.raw)
        return resp.json['service']

    def events(self, host):
        resp = self.nova.request('GET', EVENTS + '?limit=1000', token=ADMIN)
        self.assertEqual(200, resp.status, resp.raw)
        return [(e['reason'], e['new_status']) for e in resp.json['events']
                if e.get('host') == host]

    def restart_compute(self, host):
        """Stop ``host``'s nova-compute and start one like it, as an
        operator restarting the service would."""
        old = self.nova.compute_process(host)
        command = old.cmdline()
        old.terminate()
        old.wait(20)
        log = open(os.path.join(self.nova.data_dir, 'logs', 'nova-compute-%s.log' % host), 'ab')
        self.addCleanup(log.close)
        new = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
        self.addCleanup(func.terminate, new)

    def test_a_2_53_change_reaches_scheduler_host_status_and_watcher(self):
        nova = self.nova
        uuids = self.uuids()
        self.addCleanup(self.put, uuids['host-2'], status='enabled', forced_down=False)
        self.addCleanup(self.put, uuids['host-1'], status='enabled', forced_down=False)
        self.put(uuids['host-2'], status='disabled', disabled_reason='swap')
        server = nova.create_server(name='by-uuid')
        self.assertEqual('host-1', nova.show(server).json['server']['OS-EXT-SRV-ATTR:host'])
        # 'disabled', or 'registered' if the watcher first saw it disabled
        nova._wait(lambda: 'MAINTENANCE' in [s for _, s in self.events('host-2')], 30,
                   'host-2 in MAINTENANCE event')

        self.put(uuids['host-1'], forced_down=True)
        nova.wait_for_host_status(server, 'DOWN')
        nova._wait(lambda: ('forced_down', 'DOWN') in self.events('host-1'), 30,
                   'host-1 forced_down event')
        # host-1 fenced, host-2 disabled: nowhere to build
        nova.create_server(name='nowhere', wait_status='ERROR')
        self.put(uuids['host-1'], status='disabled', forced_down=False)
        nova.wait_for_host_status(server, 'MAINTENANCE')
        self.put(uuids['host-1'], status='enabled')
        nova.wait_for_host_status(server, 'UP')
        # back UP after the fence ('forced_up' or 'enabled': the watcher
        # may see the two changes in one look)
        nova._wait(lambda: 'UP' in [status for _, status in self.events('host-1')[
            self.events('host-1').index(('forced_down', 'DOWN')):]], 30, 'host-1 UP event')
        self.assertEqual(204, nova.request('DELETE', '/v2.1/servers/' + server,
                                           token=DEMO).status)
        nova._wait(lambda: nova.show(server).status == 404, 30, 'server deleted')

    def test_a_deleted_compute_carries_on_unseen_and_registers_again(self):
        nova = self.nova
        uuids = self.uuids()
        kept = nova.create_server_on('host-1', name='kept')
        resp = nova.request('DELETE', '/v2.1/os-services/' + uuids['host-1'], version='2.53')
        self.assertEqual(409, resp.status, resp.raw)

        resp = nova.request('DELETE', '/v2.1/os-services/' + uuids['host-2'], version='2.53')
        self.assertEqual(204, resp.status, resp.raw)
        self.assertEqual(['host-1'], sorted(self.uuids()))
        nova._wait(lambda: ('removed', '') in self.events('host-2'), 30, 'removed event')
        # its nova-compute still runs, and says its record is gone
        self.assertTrue(nova.compute_process('host-2').is_running())
        log = os.path.join(nova.data_dir, 'logs', 'nova-compute-host-2.log')
        nova._wait(lambda: 'record of service nova-compute on host host-2 is gone'
                   in open(log).read(), 30, 'the compute says its record is gone')
        # the scheduler never picks it: with host-1 disabled nothing can build
        self.put(uuids['host-1'], status='disabled')
        self.addCleanup(self.put, uuids['host-1'], status='enabled')
        nova.create_server(name='nowhere', wait_status='ERROR')

        self.restart_compute('host-2')
        nova._wait(lambda: 'host-2' in self.uuids(), 60, 'host-2 registered again')
        again = self.uuids()['host-2']
        self.assertNotEqual(uuids['host-2'], again)
        listed = {s['host']: s for s in nova.services()}
        self.assertEqual(('enabled', False), (listed['host-2']['status'],
                                              listed['host-2']['forced_down']))
        nova._wait(lambda: nova.services() and {s['host']: s['state'] for s in
                                                nova.services()}.get('host-2') == 'up',
                   30, 'host-2 up')
        built = nova.create_server(name='on-the-new-record')
        self.assertEqual('host-2', nova.show(built).json['server']['OS-EXT-SRV-ATTR:host'])
        self.assertEqual('UP', nova.show(built).json['server']['host_status'])
        self.assertEqual('MAINTENANCE', nova.show(kept).json['server']['host_status'])
