"""Evacuate in-process: the real WSGI app and ComputeManager.poll_once on
one SQLite file (no processes, no waiting). What the destination does,
what a source that comes back does, and what 2.29's ``force`` changes."""
from unittest import mock

import fixtures
import sqlalchemy as sa
import testtools

from nova.api.openstack import api_version_request as avr
from nova.compute import manager
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import evacuations
from nova.db.dbtime import db_now
from nova import exception
from nova.tests import fixtures as nova_fixtures

AT_2_29 = testtools.skipUnless(
    avr.max_version().at_least(avr.EVACUATE_FORCE),
    'the maximum microversion (%s) is below %s' % (avr.MAX_VERSION, avr.EVACUATE_FORCE))


class EvacuateTest(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h-src', forced_down=True)
        nova_fixtures.add_service('h-dst')
        nova_fixtures.add_service('h-busy')
        nova_fixtures.add_service('h-off', disabled=True)
        nova_fixtures.add_service('h-stale', seconds_ago=7200)
        for i in range(2):   # h-busy carries more: the scheduler prefers h-dst
            nova_fixtures.add_server('load%d' % i, host='h-busy')

    def _server(self, vm_state='active', host='h-src'):
        return nova_fixtures.add_server('vm', host=host, vm_state=vm_state,
                                        launched_at=db_now())

    def _evacuate(self, uuid, body=None, version='2.16'):
        return self.api.request('POST', '/v2.1/servers/%s/action' % uuid, version=version,
                                body={'evacuate': body or {}})

    def _row(self, uuid):
        with engine.reader() as conn:
            return instance_db.instance_get(conn, uuid)

    def _poll(self, host, guests=()):
        compute = manager.ComputeManager(host)
        compute.driver.spawn_seconds = 0
        for uuid in guests:
            compute.driver.guests[uuid] = 1
        compute.poll_once()
        return compute

    def test_the_destination_rebuilds_and_the_server_moves(self):
        uuid = self._server()
        resp = self._evacuate(uuid)
        self.assertEqual((200, b''), (resp.status_int, resp.body))
        row = self._row(uuid)
        self.assertEqual(('h-src', 'rebuilding', 'active'),
                         (row['host'], row['task_state'], row['vm_state']))
        (migration,) = evacuations.for_instance(uuid)
        self.assertEqual(('accepted', 'h-src', 'h-dst'), (
            migration['status'], migration['source_compute'], migration['dest_compute']))
        self._poll('h-busy')            # not its work
        self.assertEqual('h-src', self._row(uuid)['host'])
        dest = self._poll('h-dst')
        row = self._row(uuid)
        self.assertEqual(('h-dst', 'h-dst', None, 'active', 1),
                         (row['host'], row['node'], row['task_state'], row['vm_state'],
                          row['power_state']))
        self.assertTrue(dest.driver.has(uuid))
        self.assertEqual('done', evacuations.for_instance(uuid)[0]['status'])

    def test_error_becomes_active_and_stopped_stays_stopped(self):
        failed, stopped = self._server('error'), self._server('stopped')
        for uuid in (failed, stopped):
            self.assertEqual(200, self._evacuate(uuid).status_int)
        self._poll('h-dst')
        self.assertEqual(('active', None), _states(self._row(failed)))
        # a stopped server comes up and is powered off again, as Nova's
        self.assertEqual(('active', 'powering-off'), _states(self._row(stopped)))
        compute = self._poll('h-dst')
        self.assertEqual(('stopped', None, 4), _states(self._row(stopped)) + (
            self._row(stopped)['power_state'],))
        self.assertEqual({}, {u: p for u, p in compute.driver.guests.items() if p != 4})

    def test_the_source_coming_back_destroys_its_copy_and_writes_nothing(self):
        uuid = self._server()
        # the source read this task just before it froze
        instance_db.instance_update(uuid, task_state='powering-off')
        self.api.request('POST', '/v2.1/servers/%s/action' % uuid,
                         body={'os-resetState': {'state': 'active'}})
        self._evacuate(uuid)
        self._poll('h-dst')
        source = manager.ComputeManager('h-src')
        source.driver.guests[uuid] = 1
        source._power_action(uuid, 'powering-off')    # the stale task, finished late
        source._delete(uuid)                          # or a stale delete
        row = self._row(uuid)
        self.assertEqual(('h-dst', 'active', None, 1), (
            row['host'], row['vm_state'], row['task_state'], row['power_state']))
        source.poll_once()
        self.assertFalse(source.driver.has(uuid))
        self.assertEqual('completed', evacuations.for_instance(uuid)[0]['status'])

    def test_a_source_restarting_before_the_claim_keeps_its_copy_until_the_server_moves(self):
        uuid = self._server()
        self._evacuate(uuid)
        source = self._poll('h-src', guests=[uuid])     # a restart's first poll
        # the server is still here: its only copy stays (the host is fenced)
        self.assertTrue(source.driver.has(uuid))
        self.assertEqual('accepted', evacuations.for_instance(uuid)[0]['status'])
        self._poll('h-dst')
        self.assertEqual('h-dst', self._row(uuid)['host'])
        source.poll_once()
        self.assertFalse(source.driver.has(uuid))
        self.assertEqual('completed', evacuations.for_instance(uuid)[0]['status'])

    def test_a_reset_during_the_rebuild_keeps_the_server_where_it_was(self):
        uuid = self._server()
        self._evacuate(uuid)
        self.api.request('POST', '/v2.1/servers/%s/action' % uuid,
                         body={'os-resetState': {'state': 'error'}})
        dest = self._poll('h-dst')
        self.assertEqual(('h-src', 'error'), (self._row(uuid)['host'],
                                              self._row(uuid)['vm_state']))
        self.assertFalse(dest.driver.has(uuid))
        self.assertEqual('failed', evacuations.for_instance(uuid)[0]['status'])

    def _failing_spawn(self, dest, failing):
        """Patch ``dest``'s driver: spawning a server of ``failing`` leaves
        half a guest and raises (a full disk); others spawn."""
        spawn = dest.driver.spawn

        def spawn_or_fail(uuid, stop_event):
            if uuid in failing:
                dest.driver.guests[uuid] = 1
                raise OSError(28, 'No space left on device')
            return spawn(uuid, stop_event)
        return mock.patch.object(dest.driver, 'spawn', side_effect=spawn_or_fail)

    def test_a_rebuild_that_fails_sends_the_server_back_to_its_source_in_error(self):
        # Nova ends the evacuation failed and the server ERROR on the
        # destination, which runs nothing of it; here it goes back to the
        # source, where its copy is, and reads DOWN with it. The evacuation
        # behind it in the same poll still goes through.
        failing, other = self._server(), self._server()
        for uuid in (failing, other):
            self.assertEqual(200, self._evacuate(uuid).status_int)
        dest = manager.ComputeManager('h-dst')
        dest.driver.spawn_seconds = 0
        with self._failing_spawn(dest, {failing}):
            dest.poll_once()
        row = self._row(failing)
        self.assertEqual(('h-src', 'h-src', 'error', None), (
            row['host'], row['node'], row['vm_state'], row['task_state']))
        self.assertEqual(['failed'], [m['status'] for m in evacuations.for_instance(failing)])
        self.assertFalse(dest.driver.has(failing))
        server = self.api.request('GET', '/v2.1/servers/' + failing,
                                  version='2.16').json['server']
        self.assertEqual(('ERROR', 'h-src', 'DOWN'), (
            server['status'], server['OS-EXT-SRV-ATTR:host'], server['host_status']))
        self.assertEqual((500, '[Errno 28] No space left on device'),
                         (server['fault']['code'], server['fault']['message']))
        (action,) = [a for a in self.api.request(
            'GET', '/v2.1/servers/%s/os-instance-actions' % failing).json['instanceActions']
            if a['action'] == 'evacuate']
        events = self.api.request('GET', '/v2.1/servers/%s/os-instance-actions/%s' % (
            failing, action['request_id']), version='2.62').json['instanceAction']['events']
        self.assertIn(('compute_rebuild_instance', 'Error'),
                      [(e['event'], e['result']) for e in events])
        self.assertEqual(('h-dst', 'active', None), (
            self._row(other)['host'], self._row(other)['vm_state'],
            self._row(other)['task_state']))
        # nothing is tried again by itself; the server may be evacuated
        # again while its source is down, and then it moves
        with mock.patch.object(dest.driver, 'spawn') as spawn:
            dest.poll_once()
        spawn.assert_not_called()
        self.assertEqual(200, self._evacuate(failing).status_int)
        dest.poll_once()
        self.assertEqual(('h-dst', 'active', None), (
            self._row(failing)['host'], self._row(failing)['vm_state'],
            self._row(failing)['task_state']))
        self.assertEqual(['failed', 'done'],
                         [m['status'] for m in evacuations.for_instance(failing)])

    def test_a_failed_rebuild_whose_copy_cannot_go_keeps_its_claim(self):
        # the half-made guest cannot be destroyed either: the server must
        # not be sent back while a copy may run here, so the claim stays and
        # the next poll rebuilds it again, which now succeeds
        uuid = self._server()
        self._evacuate(uuid)
        dest = manager.ComputeManager('h-dst')
        dest.driver.spawn_seconds = 0
        with self._failing_spawn(dest, {uuid}), mock.patch.object(
                dest.driver, 'destroy', side_effect=OSError(5, 'Input/output error')):
            dest.poll_once()
        self.assertEqual(('h-dst', 'rebuilding'), (self._row(uuid)['host'],
                                                   self._row(uuid)['task_state']))
        self.assertEqual('pre-migrating', evacuations.for_instance(uuid)[0]['status'])
        dest.poll_once()
        self.assertEqual(('h-dst', 'active', None), (
            self._row(uuid)['host'], self._row(uuid)['vm_state'], self._row(uuid)['task_state']))
        self.assertEqual('done', evacuations.for_instance(uuid)[0]['status'])

    def test_a_failed_rebuild_superseded_meanwhile_leaves_the_server_alone(self):
        # a reset between the claim and the failure: the server stays where
        # the reset left it, only the migration and the step end
        uuid = self._server()
        self._evacuate(uuid)
        dest = manager.ComputeManager('h-dst')
        dest.driver.spawn_seconds = 0

        def reset_then_fail(server, stop_event):
            self.api.request('POST', '/v2.1/servers/%s/action' % server,
                             body={'os-resetState': {'state': 'active'}})
            raise OSError(28, 'No space left on device')
        with mock.patch.object(dest.driver, 'spawn', side_effect=reset_then_fail):
            dest.poll_once()
        row = self._row(uuid)
        self.assertEqual(('h-dst', 'active', None), (row['host'], row['vm_state'],
                                                      row['task_state']))
        self.assertNotEqual('pre-migrating', evacuations.for_instance(uuid)[0]['status'])
        self.assertIsNone(self.api.request('GET', '/v2.1/servers/' + uuid).json[
            'server'].get('fault'))

    def test_a_stale_host_may_be_evacuated_and_no_valid_host_is_error(self):
        uuid = self._server(host='h-stale')
        for host in ('h-dst', 'h-busy'):
            service_db.service_update(host, service_db.COMPUTE_BINARY, disabled=True)
        self.assertEqual(200, self._evacuate(uuid).status_int)
        row = self._row(uuid)
        self.assertEqual(('h-stale', 'error', None), (row['host'], row['vm_state'],
                                                      row['task_state']))
        self.assertEqual('error', evacuations.for_instance(uuid)[0]['status'])
        server = self.api.request('GET', '/v2.1/servers/' + uuid).json['server']
        self.assertEqual((500, 'No valid host was found. There are not enough hosts '
                          'available.'), (server['fault']['code'], server['fault']['message']))

    def test_below_2_29_a_given_host_is_forced(self):
        uuid = self._server()
        self.assertEqual(200, self._evacuate(uuid, {'host': 'h-off'}).status_int)
        self.assertEqual('h-off', evacuations.for_instance(uuid)[0]['dest_compute'])

    def test_below_2_14_the_answer_has_an_admin_password(self):
        uuid = self._server()
        resp = self._evacuate(uuid, {'onSharedStorage': 'False'}, version='2.13')
        self.assertEqual(200, resp.status_int)
        self.assertEqual(['adminPass'], list(resp.json))
        self.assertEqual(12, len(resp.json['adminPass']))

    def test_a_liveness_read_that_fails_refuses_the_evacuation(self):
        uuid = self._server()
        self.useFixture(fixtures.MockPatch(
            'nova.servicegroup.API.service_is_up',
            side_effect=exception.ServiceGroupUnavailable()))
        resp = self._evacuate(uuid)
        self.assertEqual(503, resp.status_int)
        self.assertIsNone(self._row(uuid)['task_state'])

    @AT_2_29
    def test_at_2_29_a_given_host_is_checked_unless_forced(self):
        disabled, forced = self._server(), self._server()
        resp = self._evacuate(disabled, {'host': 'h-off'}, version=avr.EVACUATE_FORCE)
        self.assertEqual(200, resp.status_int)
        self.assertEqual(('error', None), _states(self._row(disabled)))
        self.assertEqual('error', evacuations.for_instance(disabled)[0]['status'])
        resp = self._evacuate(forced, {'host': 'h-off', 'force': True},
                              version=avr.EVACUATE_FORCE)
        self.assertEqual(200, resp.status_int)
        self.assertEqual(('accepted', 'h-off'), (
            evacuations.for_instance(forced)[0]['status'],
            evacuations.for_instance(forced)[0]['dest_compute']))
        valid = self._server()
        self.assertEqual(200, self._evacuate(valid, {'host': 'h-busy'},
                                             version=avr.EVACUATE_FORCE).status_int)
        self.assertEqual('h-busy', evacuations.for_instance(valid)[0]['dest_compute'])

    @AT_2_29
    def test_at_2_29_force_needs_a_host(self):
        uuid = self._server()
        resp = self._evacuate(uuid, {'force': True}, version=avr.EVACUATE_FORCE)
        self.assertEqual(400, resp.status_int)
        self.assertEqual("Can't force to a non-provided destination",
                         resp.json['badRequest']['message'])
        self.assertIsNone(self._row(uuid)['task_state'])


def _states(row):
    return row['vm_state'], row['task_state']


class WorkPollCostTest(nova_fixtures.APITestCase):
    """A compute's work poll reads its service, its evacuations (both
    ways), its guests' servers and its servers' tasks: four statements
    however many servers, guests and evacuations (three with no guest)."""

    def _statements_of_a_poll(self, compute):
        seen = []

        def count(conn, cursor, statement, *args):
            if statement.lstrip().upper().startswith('SELECT'):
                seen.append(statement)
        engine_ = engine.get_engine()
        sa.event.listen(engine_, 'before_cursor_execute', count)
        try:
            compute.poll_once()
        finally:
            sa.event.remove(engine_, 'before_cursor_execute', count)
        return len(seen)

    def test_an_idle_poll_reads_four_times(self):
        nova_fixtures.add_service('h1')
        nova_fixtures.add_service('h2', forced_down=True)
        gone = []
        for i in range(5):
            nova_fixtures.add_server('vm%d' % i, host='h1')
            uuid = nova_fixtures.add_server('gone%d' % i, host='h2', launched_at=db_now())
            gone.append(uuid)
            self.api.request('POST', '/v2.1/servers/%s/action' % uuid,
                             body={'evacuate': {}}, version='2.16')
        source = manager.ComputeManager('h2')
        self.assertEqual(3, self._statements_of_a_poll(source))
        source.driver.guests.update({uuid: 1 for uuid in gone})
        self.assertEqual(4, self._statements_of_a_poll(source))
        destination = manager.ComputeManager('h1')
        destination.driver.spawn_seconds = 0
        # rebuilding five evacuated servers reads nothing more
        self.assertEqual(3, self._statements_of_a_poll(destination))
        self.assertEqual(5, len(destination.driver.guests))
        self.assertEqual(4, self._statements_of_a_poll(destination))
        self.assertEqual(4, self._statements_of_a_poll(source))
        self.assertEqual({}, source.driver.guests)


class WorkPollTransactionsTest(nova_fixtures.APITestCase):
    """An idle poll reads its service, its evacuations and its guests'
    servers in one transaction (one consistent look, one round of
    BEGIN/ROLLBACK instead of three), its servers' tasks in a second."""

    def _selects_by_transaction(self, compute):
        with nova_fixtures.transactions_sent() as transactions:
            compute.poll_once()
        return [nova_fixtures.selects(statements) for statements in transactions]

    def test_an_idle_poll_opens_two_read_transactions(self):
        nova_fixtures.add_service('h1')
        compute = manager.ComputeManager('h1')
        compute.driver.guests.update(
            {nova_fixtures.add_server('vm%d' % i, host='h1'): 1 for i in range(5)})
        self.assertEqual([3, 1], self._selects_by_transaction(compute))
        self.assertEqual(5, len(compute.driver.guests))

    def test_a_poll_that_acts_reads_before_it_writes(self):
        # the source of evacuations done, back with their guests: the
        # first three reads still share one transaction, the writes that
        # follow (its copies destroyed, the evacuations completed) have
        # their own
        nova_fixtures.add_service('h1')
        nova_fixtures.add_service('h2', forced_down=True)
        gone = [nova_fixtures.add_server('gone%d' % i, host='h2', launched_at=db_now())
                for i in range(2)]
        for uuid in gone:
            self.api.request('POST', '/v2.1/servers/%s/action' % uuid,
                             body={'evacuate': {'host': 'h1'}}, version='2.29')
        destination = manager.ComputeManager('h1')
        destination.driver.spawn_seconds = 0
        destination.poll_once()
        source = manager.ComputeManager('h2')
        source.driver.guests.update({uuid: 1 for uuid in gone})
        per_transaction = self._selects_by_transaction(source)
        self.assertEqual(3, per_transaction[0])
        self.assertEqual(1, per_transaction[-1])
        self.assertEqual({}, source.driver.guests)
