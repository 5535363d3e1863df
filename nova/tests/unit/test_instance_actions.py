"""Instance actions in-process: the real WSGI app and ComputeManager
poll_once on one SQLite file. What each request records, the events of
each step with Nova's names, what a member and an admin see at each
microversion Nova changes it, paging, and the 404s."""
from unittest import mock

from oslo_db import exception as db_exc

from nova.compute import instance_actions as actions
from nova.compute import manager
import nova.conf
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db.dbtime import db_now
from nova.tests import fixtures as nova_fixtures

ADMIN, DEMO, OTHER = 'admin:admin', 'demo:demo', 'alt:alt'
ACTION_KEYS = ['action', 'instance_uuid', 'request_id', 'user_id', 'project_id',
               'start_time', 'message']


class InstanceActionsTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h1')
        self.compute = manager.ComputeManager('h1')
        self.compute.driver.spawn_seconds = 0
        resp = self.create('vm')
        self.uuid = resp.json['server']['id']
        self.create_id = resp.headers['x-compute-request-id']
        self.compute.poll_once()

    def create(self, name):
        return self.api.request('POST', '/v2.1/servers', token=DEMO, version='2.37', body={
            'server': {'name': name, 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1',
                       'networks': 'none'}})

    def actions(self, version='2.1', token=DEMO, query=''):
        return self.api.request('GET', '/v2.1/servers/%s/os-instance-actions%s'
                                % (self.uuid, query), token=token, version=version)

    def action(self, request_id, version='2.1', token=DEMO):
        return self.api.request('GET', '/v2.1/servers/%s/os-instance-actions/%s'
                                % (self.uuid, request_id), token=token, version=version)

    def act(self, body, token=DEMO):
        resp = self.api.request('POST', '/v2.1/servers/%s/action' % self.uuid, token=token,
                                body=body)
        self.assertIn(resp.status_int, (200, 202), resp.body)
        self.compute.poll_once()
        return resp.headers['x-compute-request-id']

    def test_each_request_is_recorded_newest_first_with_its_steps(self):
        reboot = self.act({'reboot': {'type': 'SOFT'}})
        stop = self.act({'os-stop': None})
        start = self.act({'os-start': None})
        lock = self.act({'lock': None})
        unlock = self.act({'unlock': None})
        listed = self.actions().json['instanceActions']
        self.assertEqual([(unlock, 'unlock'), (lock, 'lock'), (start, 'start'),
                          (stop, 'stop'), (reboot, 'reboot'), (self.create_id, 'create')],
                         [(a['request_id'], a['action']) for a in listed])
        self.assertEqual(ACTION_KEYS, list(listed[0]))
        self.assertEqual(('demo', 'demo', None), (listed[0]['user_id'],
                                                  listed[0]['project_id'],
                                                  listed[0]['message']))
        for request_id, event in ((self.create_id, 'compute__do_build_and_run_instance'),
                                  (reboot, 'compute_reboot_instance'),
                                  (stop, 'compute_stop_instance'),
                                  (start, 'compute_start_instance')):
            events = self.action(request_id, '2.62', ADMIN).json['instanceAction']['events']
            self.assertEqual([(event, 'Success', 'h1')],
                             [(e['event'], e['result'], e['host']) for e in events])
            self.assertIsNotNone(events[0]['finish_time'])
        self.assertEqual([], self.action(lock, '2.62', ADMIN).json['instanceAction']['events'])

    def test_what_a_member_and_an_admin_see_of_events(self):
        path_events = lambda v, t: self.action(self.create_id, v, t).json[  # noqa: E731
            'instanceAction'].get('events')
        # below 2.51 only those the events rule allows (admins) see events
        self.assertIsNone(path_events('2.50', DEMO))
        self.assertEqual(['event', 'start_time', 'finish_time', 'result', 'traceback'],
                         list(path_events('2.50', ADMIN)[0]))
        self.assertEqual(['event', 'start_time', 'finish_time', 'result'],
                         list(path_events('2.51', DEMO)[0]))
        self.assertEqual(['event', 'start_time', 'finish_time', 'result', 'hostId'],
                         list(path_events('2.62', DEMO)[0]))
        admin = path_events('2.62', ADMIN)[0]
        self.assertEqual(['event', 'start_time', 'finish_time', 'result', 'traceback', 'host',
                          'hostId'], list(admin))
        self.assertEqual(path_events('2.62', DEMO)[0]['hostId'], admin['hostId'])
        shown = self.action(self.create_id, '2.58').json['instanceAction']
        self.assertEqual(ACTION_KEYS + ['updated_at', 'events'], list(shown))

    def test_another_project_s_server_and_unknown_actions_are_404(self):
        self.assertEqual(404, self.actions(token=OTHER).status_int)
        self.assertEqual(404, self.action(self.create_id, token=OTHER).status_int)
        resp = self.action('req-nope')
        self.assertEqual((404, 'Action req-nope not found'),
                         (resp.status_int, resp.json['itemNotFound']['message']))
        self.assertEqual(200, self.actions(token=ADMIN).status_int)

    def test_a_deleted_server_s_actions_from_2_21(self):
        delete = self.api.request('DELETE', '/v2.1/servers/' + self.uuid, token=DEMO)
        self.compute.poll_once()
        self.assertEqual(404, self.actions('2.20').status_int)
        listed = self.actions('2.21').json['instanceActions']
        self.assertEqual(['delete', 'create'], [a['action'] for a in listed])
        events = self.action(delete.headers['x-compute-request-id'], '2.51').json[
            'instanceAction']['events']
        self.assertEqual([('compute_terminate_instance', 'Success')],
                         [(e['event'], e['result']) for e in events])

    def test_paging_and_time_windows_at_2_58_and_2_66(self):
        reboot = self.act({'reboot': {'type': 'SOFT'}})
        first = self.actions('2.58', query='?limit=1').json
        self.assertEqual([reboot], [a['request_id'] for a in first['instanceActions']])
        self.assertIn('marker=%s' % reboot, first['links'][0]['href'])
        rest = self.actions('2.58', query='?marker=' + reboot).json
        self.assertEqual([self.create_id], [a['request_id'] for a in rest['instanceActions']])
        self.assertNotIn('links', rest)
        since = self.actions('2.58').json['instanceActions'][0]['updated_at']
        self.assertEqual([reboot], [a['request_id'] for a in self.actions(
            '2.58', query='?changes-since=' + since).json['instanceActions']])
        self.assertEqual([self.create_id], [a['request_id'] for a in self.actions(
            '2.66', query='?changes-before=%s' % self.actions('2.58').json[
                'instanceActions'][1]['updated_at']).json['instanceActions']])
        for version, query in (('2.58', '?marker=req-nope'), ('2.58', '?limit=-1'),
                               ('2.58', '?changes-since=yesterday'),
                               ('2.58', '?changes-before=2020-01-01T00:00:00Z'),
                               ('2.66', '?changes-since=2020-01-02T00:00:00Z'
                                        '&changes-before=2020-01-01T00:00:00Z')):
            self.assertEqual(400, self.actions(version, query=query).status_int, query)
        # below 2.58 the query is ignored, as Nova ignores it
        self.assertEqual(2, len(self.actions('2.57', query='?limit=1').json['instanceActions']))


    def test_a_database_error_after_the_claim_delays_the_build_never_strands_it(self):
        # the claim (scheduling -> spawning) is committed: a write that
        # fails after it is retried, else the server stays BUILD and its
        # build step open until the compute restarts
        nova.conf.CONF.set_override('report_interval', 1)
        self.addCleanup(nova.conf.CONF.clear_override, 'report_interval')
        resp = self.create('vm2')
        uuid, request_id = resp.json['server']['id'], resp.headers['x-compute-request-id']
        failed = []

        def once(write, when=lambda *a, **kw: True):
            def flaky(*args, **kwargs):
                if when(*args, **kwargs) and write.__name__ not in failed:
                    failed.append(write.__name__)
                    raise db_exc.DBConnectionError('the database went away')
                return write(*args, **kwargs)
            return flaky
        with mock.patch.object(instance_db, 'instance_update', once(
                instance_db.instance_update, lambda *a, **kw: kw.get('vm_state') == 'active')), \
                mock.patch.object(actions, 'event_start', once(actions.event_start)), \
                mock.patch.object(actions, 'event_finish', once(actions.event_finish)):
            self.compute.poll_once()
        self.assertEqual(['event_start', 'instance_update', 'event_finish'], failed)
        shown = self.api.request('GET', '/v2.1/servers/%s' % uuid, token=DEMO)
        self.assertEqual('ACTIVE', shown.json['server']['status'])
        events = self.api.request('GET', '/v2.1/servers/%s/os-instance-actions/%s' % (
            uuid, request_id), token=ADMIN, version='2.62').json['instanceAction']['events']
        self.assertEqual([('compute__do_build_and_run_instance', 'Success')],
                         [(e['event'], e['result']) for e in events])

    def test_a_spawn_that_fails_leaves_the_server_in_error_not_building(self):
        # the hypervisor cannot write its guest (a full disk) after the
        # claim: as Nova with no other host to try, ERROR on no host with
        # the reason as its fault, the build step an Error, nothing left
        # running; the next build on the host goes on
        failing = self.create('vm2')
        uuid, request_id = failing.json['server']['id'], failing.headers['x-compute-request-id']
        driver = self.compute.driver

        def no_space(server, stop_event):
            driver.guests[server] = 1       # a half-made guest
            raise OSError(28, 'No space left on device')
        with mock.patch.object(driver, 'spawn', side_effect=no_space):
            self.compute.poll_once()
        shown = self.api.request('GET', '/v2.1/servers/%s' % uuid, token=ADMIN,
                                 version='2.16').json['server']
        self.assertEqual(('ERROR', None, None, ''), (
            shown['status'], shown['OS-EXT-STS:task_state'], shown['OS-EXT-SRV-ATTR:host'],
            shown['host_status']))
        self.assertEqual(500, shown['fault']['code'])
        self.assertEqual('[Errno 28] No space left on device', shown['fault']['message'])
        self.assertIn('OSError', shown['fault']['details'])
        member = self.api.request('GET', '/v2.1/servers/%s' % uuid, token=DEMO).json['server']
        self.assertNotIn('details', member['fault'])
        self.assertNotIn(uuid, driver.guests)
        events = self.api.request('GET', '/v2.1/servers/%s/os-instance-actions/%s' % (
            uuid, request_id), token=ADMIN, version='2.62').json['instanceAction']['events']
        self.assertEqual([('compute__do_build_and_run_instance', 'Error')],
                         [(e['event'], e['result']) for e in events])
        # the next poll finds nothing of it to do; a new build goes through
        self.compute.poll_once()
        self.assertNotIn(uuid, driver.guests)
        later = self.create('vm3').json['server']['id']
        self.compute.poll_once()
        self.assertEqual('ACTIVE', self.api.request(
            'GET', '/v2.1/servers/%s' % later, token=DEMO).json['server']['status'])

    def act_refused(self, body, method, side_effect):
        """``body``'s action, its step carried out while the hypervisor's
        ``method`` raises: the request id and the server as shown to an
        admin."""
        resp = self.api.request('POST', '/v2.1/servers/%s/action' % self.uuid, token=DEMO,
                                body=body)
        self.assertEqual(202, resp.status_int, resp.body)
        with mock.patch.object(self.compute.driver, method, side_effect=side_effect):
            self.compute.poll_once()
        shown = self.api.request('GET', '/v2.1/servers/' + self.uuid, token=ADMIN).json
        return resp.headers['x-compute-request-id'], shown['server']

    def test_a_start_the_hypervisor_refuses_ends_with_a_fault_not_a_task_forever(self):
        # as Nova: the task ends, the server stays SHUTOFF (its fault is
        # recorded; a server shows one only in ERROR), the step is an
        # Error; nothing retries it by itself
        self.act({'os-stop': None})
        start, shown = self.act_refused({'os-start': None}, 'power_on',
                                        RuntimeError('the hypervisor refused'))
        self.assertEqual(('SHUTOFF', None), (shown['status'],
                                             shown['OS-EXT-STS:task_state']))
        self.assertNotIn('fault', shown)
        events = self.action(start, '2.62', ADMIN).json['instanceAction']['events']
        self.assertEqual([('compute_start_instance', 'Error')],
                         [(e['event'], e['result']) for e in events])
        with mock.patch.object(self.compute.driver, 'power_on') as power_on:
            self.compute.poll_once()
        power_on.assert_not_called()
        self.act({'os-start': None})
        self.assertEqual('ACTIVE', self.api.request(
            'GET', '/v2.1/servers/' + self.uuid, token=DEMO).json['server']['status'])

    def test_a_failed_reboot_is_error_only_when_no_guest_runs(self):
        # as Nova: a reboot that fails with the guest still running leaves
        # the server ACTIVE; one that leaves none, ERROR with its fault
        reboot, shown = self.act_refused({'reboot': {'type': 'SOFT'}}, 'reboot',
                                         RuntimeError('reboot timed out'))
        self.assertEqual(('ACTIVE', None), (shown['status'], shown['OS-EXT-STS:task_state']))
        events = self.action(reboot, '2.62', ADMIN).json['instanceAction']['events']
        self.assertEqual([('compute_reboot_instance', 'Error')],
                         [(e['event'], e['result']) for e in events])
        driver = self.compute.driver

        def lose_the_guest(uuid):
            driver.destroy(uuid)
            raise RuntimeError('the domain vanished')
        _, shown = self.act_refused({'reboot': {'type': 'HARD'}}, 'reboot', lose_the_guest)
        self.assertEqual(('ERROR', None), (shown['status'], shown['OS-EXT-STS:task_state']))
        self.assertEqual((500, 'the domain vanished'), (shown['fault']['code'],
                                                        shown['fault']['message']))
        self.assertIn('RuntimeError', shown['fault']['details'])

    def test_an_error_a_retry_cannot_mend_ends_the_poll_not_the_host(self):
        # a bug (not the database away or deadlocked) is not retried: the
        # poll ends, the run loop logs it, and the host's other work goes on
        resp = self.create('vm2')
        with mock.patch.object(actions, 'event_start',
                               side_effect=db_exc.DBError('a bug, not a blip')):
            self.assertRaises(db_exc.DBError, self.compute.poll_once)
        shown = self.api.request('GET', '/v2.1/servers/%s' % resp.json['server']['id'],
                                 token=DEMO)
        self.assertEqual('BUILD', shown.json['server']['status'])

    def test_a_compute_polling_right_after_the_claim_finds_its_action(self):
        # the compute looks the moment the API's claim is written: its stop
        # step must find the stop action already there
        claim = instance_db.instance_update

        def then_poll(*args, **kwargs):
            claimed = claim(*args, **kwargs)
            if kwargs.get('task_state') == 'powering-off':
                self.compute.poll_once()
            return claimed
        with mock.patch.object(instance_db, 'instance_update', then_poll):
            stop = self.act({'os-stop': None})
        events = self.action(stop, '2.62', ADMIN).json['instanceAction']['events']
        self.assertEqual([('compute_stop_instance', 'Success')],
                         [(e['event'], e['result']) for e in events])

    def test_a_change_whose_action_cannot_be_recorded_is_no_change(self):
        # a 503 changes nothing: the action and its change are one write
        for method, path, body in (
                ('POST', '/action', {'os-stop': None}),
                ('POST', '/action', {'lock': None}),
                ('DELETE', '', None)):
            with mock.patch.object(actions, 'record',
                                   side_effect=db_exc.DBConnectionError('went away')):
                resp = self.api.request(method, '/v2.1/servers/%s%s' % (self.uuid, path),
                                        token=DEMO, body=body)
            self.assertEqual(503, resp.status_int, (body, resp.body))
            self.compute.poll_once()
            server = self.api.request('GET', '/v2.1/servers/%s' % self.uuid, token=DEMO,
                                      version='2.9').json['server']
            self.assertEqual(('ACTIVE', None, False),
                             (server['status'], server['OS-EXT-STS:task_state'],
                              server['locked']), body)
        self.assertEqual(['create'], [a['action'] for a in self.actions().json[
            'instanceActions']])

    def test_a_database_error_after_a_power_step_does_not_repeat_the_step(self):
        # the guest is off: a poll ended there would start the stop again
        # (a second compute_stop_instance event)
        nova.conf.CONF.set_override('report_interval', 1)
        self.addCleanup(nova.conf.CONF.clear_override, 'report_interval')
        update, failed = instance_db.instance_update, []

        def once(*args, **kwargs):
            if kwargs.get('vm_state') == 'stopped' and not failed:
                failed.append(1)
                raise db_exc.DBDeadlock('deadlocked')
            return update(*args, **kwargs)
        resp = self.api.request('POST', '/v2.1/servers/%s/action' % self.uuid, token=DEMO,
                                body={'os-stop': None})
        stop = resp.headers['x-compute-request-id']
        with mock.patch.object(instance_db, 'instance_update', once):
            self.compute.poll_once()
        self.compute.poll_once()
        self.assertEqual([1], failed)
        events = self.action(stop, '2.62', ADMIN).json['instanceAction']['events']
        self.assertEqual([('compute_stop_instance', 'Success')],
                         [(e['event'], e['result']) for e in events])
        shown = self.api.request('GET', '/v2.1/servers/%s' % self.uuid, token=DEMO)
        self.assertEqual('SHUTOFF', shown.json['server']['status'])

class EvacuationActionsTest(nova_fixtures.APITestCase):
    """An evacuated server's actions show the evacuation, its steps and
    how each ended, to its member and to the admin."""

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h-src', forced_down=True)
        nova_fixtures.add_service('h-dst')
        self.uuid = nova_fixtures.add_server('vm', host='h-src', launched_at=db_now())

    def _evacuate(self):
        resp = self.api.request('POST', '/v2.1/servers/%s/action' % self.uuid,
                                body={'evacuate': {}}, version='2.16')
        self.assertEqual(200, resp.status_int, resp.body)
        return resp.headers['x-compute-request-id']

    def _events(self, request_id, token, version='2.62'):
        action = self.api.request('GET', '/v2.1/servers/%s/os-instance-actions/%s' % (
            self.uuid, request_id), token=token, version=version).json['instanceAction']
        return action, [(e['event'], e['result']) for e in action['events']]

    def test_a_finished_evacuation(self):
        request_id = self._evacuate()
        compute = manager.ComputeManager('h-dst')
        compute.driver.spawn_seconds = 0
        compute.poll_once()
        for token in (DEMO, ADMIN):
            action, events = self._events(request_id, token)
            self.assertEqual(('evacuate', 'admin', None),
                             (action['action'], action['user_id'], action['message']))
            self.assertEqual([('conductor_rebuild_server', 'Success'),
                              ('compute_claim_evacuation', 'Success'),
                              ('compute_rebuild_instance', 'Success')], events)
        hosts = [e.get('host') for e in self._events(request_id, ADMIN)[0]['events']]
        self.assertEqual(['h-dst', 'h-dst'], hosts[1:])

    def test_no_valid_host_is_an_error_step(self):
        service_db.service_update('h-dst', service_db.COMPUTE_BINARY, disabled=True)
        request_id = self._evacuate()
        action, events = self._events(request_id, DEMO)
        self.assertEqual('Error', action['message'])
        self.assertEqual([('conductor_rebuild_server', 'Error')], events)

