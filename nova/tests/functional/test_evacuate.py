"""Evacuate through the real all-in-one, and no split brain: a compute
that is frozen (SIGSTOP) or stopped while its servers are evacuated, then
thawed (SIGCONT) or started again, destroys its copies and never writes to
them; each server exists once, on its new host, in its former state."""

import testtools

from nova.api.openstack import api_version_request as avr
from nova.tests.functional import fixtures as func
from nova.tests.functional import server_actions as sa

ADMIN, DEMO = func.ADMIN, func.DEMO
SHUTDOWN, RUNNING = 4, 1


class EvacuateFlowTest(func.SharedAllInOneTestCase):
    """One all-in-one, each test failing a host of its own (they leave it
    failed): host-1 fenced and frozen, host-2 stopped and restarted, host-3
    fenced (2.29); host-4 is where they go."""
    ALL_IN_ONE = dict(hosts=4, report_interval=1, service_down_time=6)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def _servers_on(self, source):
        """{uuid: (status, vm_state, power_state) expected after the
        evacuation}: one active, one stopped, one in error."""
        nova = self.nova
        active = nova.create_server_on(source, name='active')
        stopped = nova.create_server_on(source, name='stopped')
        failed = nova.create_server_on(source, name='failed')
        sa.act(nova, stopped, {'os-stop': None}, DEMO)
        sa.wait_for_state(nova, stopped, ('SHUTOFF', 'stopped', None, SHUTDOWN, source))
        sa.act(nova, failed, {'os-resetState': {'state': 'error'}})
        return {active: ('ACTIVE', 'active', RUNNING), stopped: ('SHUTOFF', 'stopped', SHUTDOWN),
                failed: ('ACTIVE', 'active', RUNNING)}

    def _evacuate_all(self, expected, source):
        for uuid in expected:
            resp = sa.act(self.nova, uuid, {'evacuate': {}}, version='2.16')
            self.assertEqual((200, b''), (resp.status, resp.raw))
        for uuid, (status, vm_state, power_state) in expected.items():
            self.nova._wait(lambda: self._moved(uuid, source, status, vm_state, power_state),
                            30, 'evacuated %s' % uuid)

    def _moved(self, uuid, source, status, vm_state, power_state):
        server = self.nova.show(uuid).json['server']
        return (server['OS-EXT-SRV-ATTR:host'] not in (None, source)
                and server['OS-EXT-SRV-ATTR:hypervisor_hostname']
                == server['OS-EXT-SRV-ATTR:host']
                and (server['status'], server['OS-EXT-STS:vm_state'],
                     server['OS-EXT-STS:task_state'], server['OS-EXT-STS:power_state'])
                == (status, vm_state, None, power_state))

    def _hypervisors_running(self, uuid):
        return [host for host in self.nova.host_names
                if uuid in sa.guests(self.nova, host)]

    def _assert_told_it_moved(self, expected, old_status):
        """Each server's own feed (its project's view) ends with its move:
        the status it read on the failed host, then its new host's."""
        def last_event(uuid):
            events = self.nova.request('GET', '/v2.1/os-host-status-events?server_id=%s' % uuid,
                                       token=DEMO).json['events']
            return events[-1] if events else {}
        for uuid in expected:
            self.nova._wait(lambda: last_event(uuid).get('reason') == 'evacuated', 10,
                            'the evacuated event of %s' % uuid)
            event = last_event(uuid)
            host_id = self.nova.show(uuid, token=DEMO).json['server']['hostId']
            self.assertEqual((old_status, 'UP', host_id), (
                event['old_status'], event['new_status'], event['hostId']))

    def _assert_once_on_the_new_host(self, expected):
        listed = self.nova.request('GET', '/v2.1/servers/detail?all_tenants=1',
                                   version='2.16').json['servers']
        for uuid, (status, vm_state, power_state) in expected.items():
            server = self.nova.show(uuid).json['server']
            host = server['OS-EXT-SRV-ATTR:host']
            self.assertEqual([host], self._hypervisors_running(uuid))
            self.assertEqual(power_state, sa.guests(self.nova, host)[uuid])
            self.assertEqual((status, vm_state, 'UP'), (
                server['status'], server['OS-EXT-STS:vm_state'], server['host_status']))
            self.assertEqual(1, [s['id'] for s in listed].count(uuid))

    def test_up_host_refused_then_fenced_host_evacuated_and_the_thawed_source_runs_nothing(self):
        nova = self.nova
        expected = self._servers_on('host-1')
        first = next(iter(expected))
        self.assertEqual(
            (400, 'badRequest', 'Compute service of host-1 is still in use.'),
            sa.fault(sa.act(nova, first, {'evacuate': {}}, version='2.16')))
        nova.freeze_outside_writes('host-1')
        # the fence: what a fencing agent (or Masakari's operator) does
        self.assertEqual(200, nova.service_action('force-down', 'host-1', version='2.11',
                                                  forced_down=True).status)
        self.assertEqual('DOWN', nova.show(first).json['server']['host_status'])
        self._evacuate_all(expected, 'host-1')
        # frozen: its hypervisor still runs the old copies
        for uuid in expected:
            self.assertEqual(2, len(self._hypervisors_running(uuid)))
        nova.thaw('host-1')
        nova._wait(lambda: not set(expected) & set(sa.guests(nova, 'host-1')), 15,
                   'host-1 to destroy the evacuated copies')
        self._assert_once_on_the_new_host(expected)
        self._assert_told_it_moved(expected, 'DOWN')
        # and it never writes to them: a poll later, they are as they were
        sa.act(nova, first, {'os-stop': None}, DEMO)
        sa.wait_for_state(nova, first, ('SHUTOFF', 'stopped', None, SHUTDOWN,
                                        nova.show(first).json['server']['OS-EXT-SRV-ATTR:host']))

    def test_a_stale_host_is_evacuated_and_its_compute_restarted_runs_nothing(self):
        nova = self.nova
        expected = self._servers_on('host-2')
        compute = nova.compute_process('host-2')
        compute.terminate()     # its hypervisor keeps the guests (hypervisors/host-1.json)
        compute.wait(20)
        first = next(iter(expected))
        nova.wait_for_host_status(first, 'UNKNOWN', timeout=20)
        self._evacuate_all(expected, 'host-2')
        for uuid in expected:
            self.assertEqual(2, len(self._hypervisors_running(uuid)))
        restarted = nova.start_compute('host-2')
        # left failed, as the class says: once its restarted compute is
        # stopped, host-2 would read up for service_down_time and could be
        # picked as a later test's destination
        self.addCleanup(nova.service_action, 'force-down', 'host-2', version='2.11',
                        forced_down=True)
        nova._wait(lambda: not set(expected) & set(sa.guests(nova, 'host-2')), 20,
                   'the restarted host-2 to destroy the evacuated copies')
        self.assertIsNone(restarted.poll())
        self._assert_once_on_the_new_host(expected)
        self._assert_told_it_moved(expected, 'UNKNOWN')

    @testtools.skipUnless(avr.max_version().at_least(avr.EVACUATE_FORCE),
                          'the maximum microversion is below %s' % avr.EVACUATE_FORCE)
    def test_at_2_29_a_disabled_target_is_no_valid_host_unless_forced(self):
        nova = self.nova
        checked = nova.create_server_on('host-3', name='checked')
        forced = nova.create_server_on('host-3', name='forced')
        nova.service_action('disable', 'host-4')
        self.addCleanup(nova.service_action, 'enable', 'host-4')
        nova.service_action('force-down', 'host-3', version='2.11', forced_down=True)
        resp = sa.act(nova, checked, {'evacuate': {'host': 'host-4'}},
                      version=avr.EVACUATE_FORCE)
        self.assertEqual(200, resp.status)
        server = nova.show(checked).json['server']
        self.assertEqual(('ERROR', 'host-3'), (server['status'],
                                               server['OS-EXT-SRV-ATTR:host']))
        self.assertIn('No valid host was found', server['fault']['message'])
        resp = sa.act(nova, forced, {'evacuate': {'host': 'host-4', 'force': True}},
                      version=avr.EVACUATE_FORCE)
        self.assertEqual(200, resp.status)
        nova._wait(lambda: self._moved(forced, 'host-3', 'ACTIVE', 'active', RUNNING), 30,
                   'forced to host-4')
        self.assertEqual('host-4', nova.show(forced).json['server']['OS-EXT-SRV-ATTR:host'])


class FailedRebuildTest(func.SharedAllInOneTestCase):
    """An evacuation whose destination's disk is full, with real processes:
    host-1 fenced (frozen, forced down), host-2 the destination."""
    ALL_IN_ONE = dict(hosts=3, report_interval=1, service_down_time=6)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def test_the_server_goes_back_to_its_fenced_source_then_moves_when_asked_again(self):
        nova = self.nova
        uuid = nova.create_server_on('host-1', name='web')
        nova.freeze_outside_writes('host-1')
        self.addCleanup(nova.thaw, 'host-1')
        nova.service_action('force-down', 'host-1', version='2.11', forced_down=True)
        nova.fill_disk('host-2')
        self.addCleanup(nova.fill_disk, 'host-2', False)
        resp = sa.act(nova, uuid, {'evacuate': {'host': 'host-2'}}, version='2.16')
        self.assertEqual(200, resp.status)
        nova._wait(lambda: nova.show(uuid).json['server']['status'] == 'ERROR', 20,
                   'the failed rebuild')
        server = nova.show(uuid).json['server']
        self.assertEqual(('host-1', 'DOWN', None), (
            server['OS-EXT-SRV-ATTR:host'], server['host_status'],
            server['OS-EXT-STS:task_state']))
        self.assertEqual((500, '[Errno 28] No space left on device'),
                         (server['fault']['code'], server['fault']['message']))
        migrations = nova.request('GET', '/v2.1/os-migrations?instance_uuid=%s' % uuid,
                                  version='2.59').json['migrations']
        self.assertEqual([('evacuation', 'failed', 'host-2')], [
            (m['migration_type'], m['status'], m['dest_compute']) for m in migrations])
        # its only copy is the fenced source's; the destination kept nothing
        self.assertEqual(['host-1'], [h for h in nova.host_names
                                      if uuid in sa.guests(nova, h)])
        nova.fill_disk('host-2', False)
        self.assertEqual(200, sa.act(nova, uuid, {'evacuate': {}}, version='2.16').status)
        nova._wait(lambda: nova.show(uuid).json['server']['status'] == 'ACTIVE', 20,
                   'the second evacuation')
        moved_to = nova.show(uuid).json['server']['OS-EXT-SRV-ATTR:host']
        self.assertIn(moved_to, ('host-2', 'host-3'))
        nova.thaw('host-1')
        nova._wait(lambda: uuid not in sa.guests(nova, 'host-1'), 15,
                   'host-1 to destroy its copy')
        self.assertEqual([moved_to], [h for h in nova.host_names
                                      if uuid in sa.guests(nova, h)])
