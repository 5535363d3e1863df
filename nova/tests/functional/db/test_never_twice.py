"""Never twice, never lost: the failure orders of issue 23's findings F1-F5,
each replayed through the real WSGI app and the computes' own polls on
SQLite, MariaDB and PostgreSQL, with the simulated hypervisors' guests as
the judge. Each fails on 5f4ad81.

A compute "frozen" between two steps is one whose poll read its work and
then stopped; "thawing" it runs the step it had read. A compute "killed"
mid-spawn leaves its guest on the hypervisor and nothing else.
"""
from nova.compute import manager
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import evacuations
from nova.db import engine
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

MEMBER = 'demo:demo'


class Killed(BaseException):
    """The compute process died here: nothing in it runs on (as for
    SystemExit, no ``except Exception`` of the compute catches it)."""


class _NeverTwiceTests:

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Policy())
        self.api = nova_fixtures.API()
        self.computes = {}
        nova_fixtures.add_service('h-src')
        for host in ('h-b', 'h-c'):
            nova_fixtures.add_service(host)

    # ------------------------------------------------------------ helpers

    def compute(self, host):
        if host not in self.computes:
            compute = manager.ComputeManager(host)
            compute.driver.spawn_seconds = 0
            self.computes[host] = compute
        return self.computes[host]

    def running(self, uuid):
        return sorted(h for h, c in self.computes.items() if c.driver.has(uuid))

    def unfenced_running(self, uuid):
        forced = {s['host'] for s in service_db.service_list() if s['forced_down']}
        return [h for h in self.running(uuid) if h not in forced]

    def assert_never_twice(self, uuid):
        self.assertLessEqual(len(self.unfenced_running(uuid)), 1, self.running(uuid))

    def server_on_src(self):
        uuid = nova_fixtures.add_server('vm', host='h-src')
        self.compute('h-src').driver.guests[uuid] = 1
        return uuid

    def action(self, uuid, body, token='admin:admin', version='2.16'):
        return self.api.request('POST', '/v2.1/servers/%s/action' % uuid, token=token,
                                version=version, body=body)

    def force(self, host, down):
        return self.api.request('PUT', '/v2.1/os-services/force-down', version='2.11',
                                body={'host': host, 'binary': 'nova-compute',
                                      'forced_down': down})

    def server(self, uuid):
        return self.api.request('GET', '/v2.1/servers/%s' % uuid,
                                version='2.16').json['server']

    def fault(self, resp):
        (name, body), = resp.json.items()
        return resp.status_int, name, body['message']

    # ------------------------------------------------------------ F1

    def test_f1_a_late_destination_spawns_nothing(self):
        uuid = self.server_on_src()
        self.assertEqual(200, self.force('h-src', True).status_int)
        self.assertEqual(200, self.action(uuid, {'evacuate': {'host': 'h-b'}}).status_int)
        with engine.reader() as conn:
            read_before_freezing = evacuations.of_host(conn, 'h-b')
        late = self.compute('h-b')
        spawn = late.driver.spawn

        def spawn_and_look(uuid_, stop_event):
            self.assertEqual([], self.running(uuid_), 'a second copy is spawned')
            return spawn(uuid_, stop_event)
        late.driver.spawn = spawn_and_look
        # the HA engine's retry, as Masakari's
        self.assertEqual(202, self.action(uuid, {'os-resetState': {'state': 'error'}})
                         .status_int)
        self.assertEqual(200, self.action(uuid, {'evacuate': {'host': 'h-c'}}).status_int)
        self.compute('h-c').poll_once()
        self.compute('h-src').poll_once()
        self.assertEqual(['h-c'], self.running(uuid))
        for migration in read_before_freezing:     # thawed
            late._rebuild_evacuated(migration)
        self.assertEqual(['h-c'], self.running(uuid))
        server = self.server(uuid)
        self.assertEqual(('ACTIVE', 'h-c'), (server['status'],
                                             server['OS-EXT-SRV-ATTR:host']))
        self.assertEqual(['failed', 'completed'],
                         [m['status'] for m in evacuations.for_instance(uuid)])

    def test_a_second_evacuate_supersedes_an_unclaimed_one_in_any_task_state(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        self.assertEqual(200, self.action(uuid, {'evacuate': {'host': 'h-b'}}).status_int)
        self.assertEqual('rebuilding', self.server(uuid)['OS-EXT-STS:task_state'])
        self.assertEqual(200, self.action(uuid, {'evacuate': {'host': 'h-c'}}).status_int)
        self.compute('h-b').poll_once()
        self.compute('h-c').poll_once()
        self.assertEqual(['h-c', 'h-src'], self.running(uuid))
        self.compute('h-src').poll_once()
        self.assertEqual(['h-c'], self.running(uuid))
        self.assertEqual(['failed', 'completed'],
                         [m['status'] for m in evacuations.for_instance(uuid)])

    # ------------------------------------------------------------ F2

    def test_f2_a_claimed_server_is_on_its_destination_and_never_runs_twice(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        self.action(uuid, {'evacuate': {'host': 'h-b'}})
        dying = self.compute('h-b')
        spawn = dying.driver.spawn

        def spawn_then_die(uuid_, stop_event):
            spawn(uuid_, stop_event)
            raise Killed()
        dying.driver.spawn = spawn_then_die
        self.assertRaises(Killed, dying.poll_once)
        self.assertEqual('h-b', self.server(uuid)['OS-EXT-SRV-ATTR:host'])
        self.action(uuid, {'os-resetState': {'state': 'error'}})
        # h-b still reads up: its copy is the server
        self.assertEqual((400, 'badRequest', 'Compute service of h-b is still in use.'),
                         self.fault(self.action(uuid, {'evacuate': {'host': 'h-c'}})))
        self.assert_never_twice(uuid)
        self.force('h-b', True)
        self.assertEqual(200, self.action(uuid, {'evacuate': {'host': 'h-c'}}).status_int)
        self.compute('h-c').poll_once()
        self.assert_never_twice(uuid)
        restarted = manager.ComputeManager('h-b')
        restarted.driver = dying.driver
        restarted.poll_once()
        self.compute('h-src').poll_once()
        self.assertEqual(['h-c'], self.running(uuid))
        self.assertEqual(['completed', 'completed'],
                         [m['status'] for m in evacuations.for_instance(uuid)])
        self.assertEqual(200, self.force('h-b', False).status_int)

    # ------------------------------------------------------------ F3

    def test_f3_a_stale_evacuation_never_destroys_the_only_copy(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        self.action(uuid, {'evacuate': {'host': 'h-b'}})     # h-b died: never claimed
        service_b = [s for s in service_db.service_list() if s['host'] == 'h-b'][0]
        self.assertEqual(
            (409, 'conflictingRequest', 'Unable to delete compute service that has '
             'in-progress migrations. Complete the migrations or delete the instances '
             'first.'),
            self.fault(self.api.request('DELETE', '/v2.1/os-services/%s' % service_b['id'])))
        resp = self.force('h-src', False)
        self.assertEqual(400, resp.status_int)
        self.assertIn('still in progress', resp.json['badRequest']['message'])
        self.action(uuid, {'os-resetState': {'state': 'active'}})
        self.assertEqual(200, self.force('h-src', False).status_int)
        for _ in range(3):
            self.compute('h-src').poll_once()
            self.action(uuid, {'reboot': {'type': 'HARD'}})
        self.compute('h-src').poll_once()
        self.compute('h-b').poll_once()     # back at last: nothing to do
        self.assertEqual(['h-src'], self.running(uuid))
        server = self.server(uuid)
        self.assertEqual(('ACTIVE', 'UP', 'h-src'), (
            server['status'], server['host_status'], server['OS-EXT-SRV-ATTR:host']))
        self.assertEqual(204, self.api.request(
            'DELETE', '/v2.1/os-services/%s' % service_b['id']).status_int)

    def test_a_done_evacuation_keeps_its_source_forced_down_until_it_cleaned_up(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        self.action(uuid, {'evacuate': {'host': 'h-b'}})
        self.compute('h-b').poll_once()
        expected = (400, 'badRequest', 'Unable to force up host h-src as `done` evacuation '
                    'migration records remain associated with the host. Ensure the compute '
                    'service has been restarted, allowing these records to move to '
                    '`completed` before retrying this request.')
        self.assertEqual(expected, self.fault(self.force('h-src', False)))
        service = [s for s in service_db.service_list() if s['host'] == 'h-src'][0]
        resp = self.api.request('PUT', '/v2.1/os-services/%s' % service['uuid'],
                                version='2.53', body={'forced_down': False})
        self.assertEqual(expected, self.fault(resp))
        self.assertTrue(service_db.service_list(host='h-src')[0]['forced_down'])
        self.compute('h-src').poll_once()
        self.assertEqual(['h-b'], self.running(uuid))
        self.assertEqual(200, self.force('h-src', False).status_int)

    # ------------------------------------------------------------ F4

    def test_f4_a_server_deleted_while_its_host_was_down_is_reaped_before_it_beats(self):
        uuid = nova_fixtures.add_server('vm', host='h-stale')
        nova_fixtures.add_service('h-stale', seconds_ago=7200)
        thawed = self.compute('h-stale')
        thawed.driver.guests[uuid] = 1
        self.assertEqual(204, self.api.request('DELETE', '/v2.1/servers/%s' % uuid,
                                               token=MEMBER).status_int)
        thawed.poll_once()
        self.assertEqual([], self.running(uuid))

    def test_after_a_lapse_the_first_beat_waits_for_the_sweep(self):
        compute = self.compute('h-src')
        self.assertFalse(compute.lapse_guard.may_beat(0))     # a start is a lapse
        compute.poll_once()
        self.assertTrue(compute.lapse_guard.may_beat(0))
        compute.lapse_guard.beaten()
        self.force('h-src', True)
        compute.poll_once()      # forced down: a lapse, swept in the same poll
        self.assertTrue(compute.lapse_guard.may_beat(0))
        compute.lapse_guard.beaten()
        compute.lapse_guard.max_gap = 0       # the next beat comes after a gap
        self.assertFalse(compute.lapse_guard.may_beat(0))
        compute.poll_once()
        self.assertTrue(compute.lapse_guard.may_beat(0))

    def test_f4_a_server_deleted_during_its_evacuation_runs_nowhere(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        self.action(uuid, {'evacuate': {'host': 'h-b'}})
        self.compute('h-src').poll_once()
        self.assertEqual(204, self.api.request('DELETE', '/v2.1/servers/%s' % uuid,
                                               token=MEMBER).status_int)
        self.compute('h-b').poll_once()
        self.compute('h-src').poll_once()
        self.assertEqual([], self.running(uuid))
        self.assertEqual(['failed'], [m['status'] for m in evacuations.for_instance(uuid)])

    def test_a_delete_during_the_rebuild_is_carried_out_not_lost(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        self.action(uuid, {'evacuate': {'host': 'h-b'}})
        destination = self.compute('h-b')
        spawn = destination.driver.spawn

        def spawn_while_deleted(uuid_, stop_event):
            # claimed: the server is on h-b, which is up, so the compute deletes
            self.assertEqual(204, self.api.request('DELETE', '/v2.1/servers/%s' % uuid_,
                                                   token=MEMBER).status_int)
            return spawn(uuid_, stop_event)
        destination.driver.spawn = spawn_while_deleted
        destination.poll_once()
        destination.poll_once()
        self.compute('h-src').poll_once()
        self.assertEqual(404, self.api.request('GET', '/v2.1/servers/%s' % uuid).status_int)
        self.assertEqual([], self.running(uuid))

    # ------------------------------------------------------------ F5

    def test_f5_a_host_name_in_another_case_is_the_service_s_own_name(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        case_insensitive = self.BACKEND == 'mysql'
        resp = self.action(uuid, {'evacuate': {'host': 'H-SRC'}})
        self.assertEqual((400, 'badRequest', "The target host can't be the same one.")
                         if case_insensitive else
                         (404, 'itemNotFound', 'Compute host H-SRC not found.'),
                         self.fault(resp))
        self.compute('h-src').poll_once()
        self.assertEqual(['h-src'], self.running(uuid))
        resp = self.action(uuid, {'evacuate': {'host': 'H-B'}})
        if not case_insensitive:
            self.assertEqual(404, resp.status_int)
            return
        self.assertEqual(200, resp.status_int)
        self.assertEqual('h-b', evacuations.for_instance(uuid)[-1]['dest_compute'])
        self.compute('h-b').poll_once()
        self.compute('h-src').poll_once()
        self.assertEqual(['h-b'], self.running(uuid))
        self.assertEqual((None, 'h-b'), (self.server(uuid)['OS-EXT-STS:task_state'],
                                         self.server(uuid)['OS-EXT-SRV-ATTR:host']))

    # ------------------------------------------------------------ S4

    def test_finish_completes_only_its_own_migration(self):
        uuid = self.server_on_src()
        self.force('h-src', True)
        self.action(uuid, {'evacuate': {'host': 'h-b'}})
        with engine.reader() as conn:
            (first,) = evacuations.of_host(conn, 'h-b')
        self.assertTrue(evacuations.claim(first, 'h-b'))
        self.force('h-b', True)
        self.action(uuid, {'evacuate': {'host': 'h-c'}})
        self.assertFalse(evacuations.finish(first, 'h-b', {'power_state': 1},
                                            {'task_state': None}))
        with engine.reader() as conn:
            row = instance_db.instance_get(conn, uuid)
        self.assertEqual(('h-b', 'rebuilding'), (row['host'], row['task_state']))


class NeverTwiceSQLiteTest(_NeverTwiceTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class NeverTwiceMySQLTest(_NeverTwiceTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class NeverTwicePostgreSQLTest(_NeverTwiceTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
