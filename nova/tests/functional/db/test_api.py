"""The DB API on SQLite, MariaDB/MySQL and PostgreSQL, including the two
races a real deployment has: computes claiming the same build, and an
operator's change meeting a heartbeat."""
import datetime
import json
import threading
import time
import uuid as uuidlib

import sqlalchemy as sa

from nova.db import flavors as flavor_db

from nova.db import instances as instance_db

from nova.db import services as service_db
from nova.db import dbtime
from nova.db import engine
from nova.db import migration_records
from nova.db import models
from nova import exception
from nova.tests.functional.db import backends

HOST = 'db-host'


def _server(**values):
    row = dict(uuid=str(uuidlib.uuid4()), display_name='vm', hostname='vm',
               project_id='p1', user_id='u1', flavor_id='1', reservation_id='r-1',
               metadata=json.dumps({}), host=HOST, node=HOST, vm_state='building',
               task_state='scheduling')
    row.update(values)
    return row


def _in_threads(count, target):
    """Run target(index) in ``count`` threads released together; results."""
    barrier = threading.Barrier(count)
    results = [None] * count
    errors = []

    def run(index):
        try:
            barrier.wait(10)
            results[index] = target(index)
        except Exception as exc:  # reported below, not lost in a thread
            errors.append(exc)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    if errors:
        raise errors[0]
    return results


class _ServiceTests:

    def test_register_twice_gives_one_row(self):
        first = service_db.service_register(HOST, service_db.COMPUTE_BINARY, topic='compute')
        second = service_db.service_register(HOST, service_db.COMPUTE_BINARY, topic='compute')
        self.assertEqual(first['id'], second['id'])
        self.assertEqual(1, len(service_db.service_list(host=HOST)))

    def test_concurrent_registration_gives_one_row(self):
        rows = _in_threads(4, lambda i: service_db.service_register(HOST, service_db.COMPUTE_BINARY))
        self.assertEqual(1, len({row['id'] for row in rows}))

    def test_list_carries_liveness(self):
        service_db.service_register(HOST, service_db.COMPUTE_BINARY)
        service_db.service_register('other', 'nova-scheduler')
        rows = service_db.service_list()
        self.assertEqual([HOST, 'other'], [r['host'] for r in rows])
        self.assertEqual(['nova-scheduler'], [r['binary'] for r in
                                              service_db.service_list(binary='nova-scheduler')])
        for row in rows:
            # never reported, created a moment ago: up, counted from creation
            self.assertIsNone(row['last_seen_up'])
            self.assertTrue(row['is_up'])

    def test_heartbeat_on_a_deleted_row_reports_it_gone(self):
        service = service_db.service_register(HOST, service_db.COMPUTE_BINARY)
        service_db.service_update(HOST, service_db.COMPUTE_BINARY, deleted=service['id'])
        self.assertFalse(service_db.service_heartbeat(service['id']))

    def test_update_of_an_unknown_service_changes_nothing(self):
        self.assertEqual(0, service_db.service_update('nowhere', service_db.COMPUTE_BINARY, disabled=True))

    def test_operator_changes_survive_racing_heartbeats(self):
        service = service_db.service_register(HOST, service_db.COMPUTE_BINARY)
        changes = [dict(disabled=True, disabled_reason='maintenance %d' % i)
                   if i % 3 == 0 else
                   dict(forced_down=bool(i % 2), disabled=False, disabled_reason=None)
                   for i in range(30)]
        stop = threading.Event()
        beats, errors = [], []

        def heartbeat(index):
            count = 0
            try:
                while not stop.is_set():
                    service_db.service_heartbeat(service['id'])
                    count += 1
                    time.sleep(0.001)     # let the operator's writes in (SQLite)
            except Exception as exc:
                errors.append(exc)
            beats.append(count)
        heartbeaters = [threading.Thread(target=heartbeat, args=(i,)) for i in range(3)]
        for thread in heartbeaters:
            thread.start()
        state = dict(disabled=False, disabled_reason=None, forced_down=False)
        try:
            for change in changes:
                self.assertEqual(1, service_db.service_update(HOST, service_db.COMPUTE_BINARY, **change))
                state.update(change)
                # a heartbeat that lands after the change must not undo it
                row = self._after_next_heartbeat(service_db.service_list(host=HOST)[0]['report_count'])
                self.assertEqual(state, {k: _plain(row[k]) for k in state})
        finally:
            stop.set()
            for thread in heartbeaters:
                thread.join(30)
        self.assertEqual([], errors)
        row = service_db.service_list(host=HOST)[0]
        self.assertEqual(state, {k: _plain(row[k]) for k in state})
        self.assertEqual(sum(beats), row['report_count'])

    def _after_next_heartbeat(self, count):
        """The row once a heartbeat newer than ``count`` has landed."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            row = service_db.service_list(host=HOST)[0]
            if row['report_count'] > count:
                return row
            time.sleep(0.002)
        self.fail('no heartbeat for 10 s')


def _plain(value):
    return bool(value) if isinstance(value, int) and not isinstance(value, bool) else value


class _InstanceTests:

    def test_create_and_get(self):
        row = _server(display_name='web', metadata=json.dumps({'a': 'b'}))
        instance_db.instances_create([row])
        with engine.reader() as conn:
            got = instance_db.instance_get(conn, row['uuid'])
            self.assertIsNone(instance_db.instance_get(conn, row['uuid'], project_id='other'))
        self.assertEqual('web', got['display_name'])
        self.assertEqual({'a': 'b'}, json.loads(got['metadata']))
        self.assertIsNotNone(got['created_at'])
        self.assertIsNone(got['fault_code'])

    def test_claim_race_has_exactly_one_winner(self):
        rows = [_server() for _ in range(10)]
        instance_db.instances_create(rows)
        for row in rows:
            wins = _in_threads(6, lambda i: instance_db.instance_update(
                row['uuid'], expected_task_state=('scheduling',), task_state='spawning'))
            self.assertEqual(1, wins.count(True), row['uuid'])
        self.assertEqual([], instance_db.instances_for_compute(HOST, ('scheduling',)))
        self.assertEqual(10, len(instance_db.instances_for_compute(HOST, ('spawning',))))

    def test_claim_of_a_deleted_or_deleting_server_fails(self):
        gone, deleting = _server(), _server()
        instance_db.instances_create([gone, deleting])
        instance_db.instance_destroy(gone['uuid'])
        instance_db.instance_update(deleting['uuid'], task_state='deleting')
        for row in (gone, deleting):
            self.assertFalse(instance_db.instance_update(
                row['uuid'], expected_task_state=('scheduling',), task_state='spawning'))

    def test_expected_task_state_none_matches_null(self):
        row = _server(task_state=None, vm_state='active')
        instance_db.instances_create([row])
        self.assertFalse(instance_db.instance_update(row['uuid'], expected_task_state=('deleting',),
                                                     task_state='deleting'))
        self.assertTrue(instance_db.instance_update(row['uuid'], expected_task_state=(None,),
                                                    task_state='deleting'))

    def test_destroy_is_a_soft_delete_visible_with_include_deleted(self):
        row = _server()
        instance_db.instances_create([row])
        self.assertTrue(instance_db.instance_destroy(row['uuid']))
        self.assertFalse(instance_db.instance_destroy(row['uuid']))
        with engine.reader() as conn:
            self.assertIsNone(instance_db.instance_get(conn, row['uuid']))
            live = instance_db.instance_list(conn, {}, ['id'], ['asc'], 10)
            every = instance_db.instance_list(conn, {'include_deleted': True}, ['id'], ['asc'], 10)
        self.assertEqual([], live)
        self.assertEqual(['deleted'], [r['vm_state'] for r in every])
        self.assertIsNotNone(every[0]['terminated_at'])

    def test_latest_fault_is_joined_for_error_servers(self):
        row = _server(vm_state='error', task_state=None, host=None)
        instance_db.instances_create([row])
        instance_db.instance_fault_create(row['uuid'], 500, 'first')
        instance_db.instance_fault_create(row['uuid'], 500, 'No valid host', details='none up')
        with engine.reader() as conn:
            got = instance_db.instance_get(conn, row['uuid'])
        self.assertEqual((500, 'No valid host', 'none up'),
                         (got['fault_code'], got['fault_message'], got['fault_details']))

    def test_name_filter_is_a_regular_expression(self):
        instance_db.instances_create([_server(display_name=n) for n in ('web-1', 'web-2', 'db-1')])
        with engine.reader() as conn:
            rows = instance_db.instance_list(conn, {'name': '^web-[0-9]$'}, ['display_name'],
                                             ['asc'], 10)
        self.assertEqual(['web-1', 'web-2'], [r['display_name'] for r in rows])

    def test_pages_follow_the_marker_in_both_directions(self):
        names = ['s%02d' % i for i in range(7)]
        instance_db.instances_create([_server(display_name=n, key_name=None if i % 2 else 'k')
                             for i, n in enumerate(names)])
        for keys, dirs in ((['display_name', 'id'], ['asc', 'asc']),
                           (['display_name', 'id'], ['desc', 'desc']),
                           (['key_name', 'id'], ['asc', 'desc']),
                           (['created_at', 'id'], ['desc', 'desc'])):
            with engine.reader() as conn:
                whole = instance_db.instance_list(conn, {}, keys, dirs, 100)
                seen, marker = [], None
                while True:
                    page = instance_db.instance_list(conn, {}, keys, dirs, 3, marker)
                    if not page:
                        break
                    seen += page
                    marker = instance_db.instance_marker(conn, page[-1]['uuid'])
            self.assertEqual([r['uuid'] for r in whole], [r['uuid'] for r in seen], keys)
            self.assertEqual(7, len(seen))

    def test_locked_filter_sort_and_changes_before(self):
        names = ['s%02d' % i for i in range(6)]
        instance_db.instances_create([_server(display_name=n, locked=i % 3 == 0)
                             for i, n in enumerate(names)])
        with engine.reader() as conn:
            locked = instance_db.instance_list(conn, {'locked': True}, ['display_name', 'id'],
                                               ['asc', 'asc'], 10)
            self.assertEqual(['s00', 's03'], [r['display_name'] for r in locked])
            self.assertEqual(4, len(instance_db.instance_list(conn, {'locked': False}, ['id'],
                                                              ['asc'], 10)))
            # sort_key=locked pages exactly, locked ones first when descending
            seen, marker = [], None
            while True:
                page = instance_db.instance_list(conn, {}, ['locked', 'id'], ['desc', 'desc'], 4,
                                                 marker)
                if not page:
                    break
                seen += page
                marker = instance_db.instance_marker(conn, page[-1]['uuid'])
            self.assertEqual([True, True] + [False] * 4, [bool(r['locked']) for r in seen])
            now = conn.scalar(sa.select(dbtime.db_now()))
            self.assertEqual(6, len(instance_db.instance_list(
                conn, {'changes_before': now + datetime.timedelta(minutes=1)}, ['id'],
                ['asc'], 10)))
            self.assertEqual([], instance_db.instance_list(
                conn, {'changes_before': now - datetime.timedelta(days=1)}, ['id'],
                ['asc'], 10))

    def test_counts_by_host(self):
        instance_db.instances_create([_server(host='a'), _server(host='a'), _server(host='b')])
        with engine.reader() as conn:
            self.assertEqual({'a': 2, 'b': 1}, instance_db.instance_counts_by_host(conn, {'a', 'b'}))

    def test_flavors(self):
        self.assertEqual(['1', '2', '3', '4', '5'], [f['flavorid'] for f in flavor_db.flavor_list()])
        self.assertEqual('m1.small', flavor_db.flavor_get(2)['name'])
        self.assertIsNone(flavor_db.flavor_get('nope'))


class _FlavorTests:
    """The flavor lists' filters and keyset pages, in the database, with a
    private flavor (p1) and a disabled one (d1) beside the shipped five."""

    def _add_flavors(self):
        with engine.writer() as conn:
            conn.execute(sa.insert(models.flavors), [
                {'flavorid': 'p1', 'name': 'p1.private', 'memory_mb': 1024, 'vcpus': 1,
                 'root_gb': 10, 'is_public': False, 'disabled': False},
                {'flavorid': 'd1', 'name': 'd1.disabled', 'memory_mb': 2048, 'vcpus': 1,
                 'root_gb': 20, 'is_public': True, 'disabled': True}])
        self.addCleanup(self._remove_added_flavors)

    @staticmethod
    def _remove_added_flavors():
        # the backend keeps its flavors from one test to the next
        with engine.writer() as conn:
            conn.execute(sa.delete(models.flavors).where(
                models.flavors.c.flavorid.in_(('p1', 'd1'))))

    def _ids(self, **kwargs):
        if not hasattr(self, '_added'):
            self._added = self._add_flavors()
        return [f['flavorid'] for f in flavor_db.flavor_list(**kwargs)]

    def test_filters(self):
        self.assertEqual(['1', '2', '3', '4', '5', 'd1'], self._ids())
        self.assertEqual(['p1'], self._ids(is_public=False))
        self.assertEqual(['1', '2', '3', '4', '5', 'd1', 'p1'], self._ids(is_public=None))
        self.assertEqual(['1', '2', '3', '4', '5'], self._ids(disabled=False))
        self.assertEqual(['3', '4', '5'], self._ids(min_memory_mb=4096))
        self.assertEqual(['2', '3', '4', '5', 'p1'],
                         self._ids(is_public=None, disabled=False, min_root_gb=10))
        self.assertEqual([], self._ids(min_memory_mb=10 ** 30))

    def test_every_sort_key_pages_exactly(self):
        for key in sorted(flavor_db.FLAVOR_SORT_KEYS):
            for direction in ('asc', 'desc'):
                whole = self._ids(is_public=None, sort_key=key, sort_dir=direction)
                seen, marker = [], None
                while True:
                    page = self._ids(is_public=None, sort_key=key, sort_dir=direction,
                                     limit=2, marker=marker)
                    seen += page
                    if len(page) < 2:
                        break
                    marker = page[-1]
                self.assertEqual(whole, seen, (key, direction))
                self.assertEqual(7, len(seen), (key, direction))

    def test_order(self):
        self.assertEqual(['5', '4', '3', 'd1', '2'],
                         self._ids(sort_key='memory_mb', sort_dir='desc', limit=5))
        # a marker outside the filters still places the page
        self.assertEqual(['2', '3', '4', '5'],
                         self._ids(sort_key='memory_mb', marker='p1', disabled=False))

    def test_unknown_marker(self):
        self.assertEqual([], self._ids(marker='d1'))     # the last one
        self.assertRaises(exception.MarkerNotFound, flavor_db.flavor_list, marker='nope')


class _MigrationListTests:
    """GET /os-migrations' statement: filters, newest first, keyset pages
    after a uuid, and a never-changed migration outside changes-since."""

    def _add_migrations(self):
        base = datetime.datetime(2026, 1, 1)
        rows = []
        for i, (status, source, dest) in enumerate(
                (('done', 'h1', 'h2'), ('accepted', 'h2', 'h3'), ('failed', 'h1', 'h3'),
                 ('completed', 'h3', 'h1')), start=1):
            rows.append(dict(
                uuid=str(uuidlib.uuid4()), instance_uuid='server-%d' % (i % 2),
                migration_type='evacuation', source_compute=source, source_node=source,
                dest_compute=dest, status=status, deleted=0,
                # two share a creation time: the id breaks the tie
                created_at=base + datetime.timedelta(hours=min(i, 3)),
                updated_at=None if status == 'accepted' else base + datetime.timedelta(
                    hours=i, minutes=30)))
        with engine.writer() as conn:
            conn.execute(sa.delete(models.migrations))
            conn.execute(sa.insert(models.migrations), rows)
        return [r['uuid'] for r in rows]

    def _statuses(self, filters=None, limit=None, marker=None):
        rows = migration_records.migration_list(filters or {}, limit, marker)
        return [r['status'] for r in rows]

    def test_newest_first_and_pages(self):
        uuids = self._add_migrations()
        self.assertEqual(['completed', 'failed', 'accepted', 'done'], self._statuses())
        self.assertEqual(['completed', 'failed'], self._statuses(limit=2))
        self.assertEqual(['accepted', 'done'], self._statuses(limit=2, marker=uuids[2]))
        self.assertEqual([], self._statuses(marker=uuids[0]))
        self.assertRaises(exception.MigrationMarkerNotFound, self._statuses, marker='nope')

    def test_filters(self):
        self._add_migrations()
        self.assertEqual(['completed', 'failed', 'done'], self._statuses({'host': 'h1'}))
        self.assertEqual(['failed', 'done'], self._statuses({'source_compute': 'h1'}))
        self.assertEqual(['accepted'], self._statuses({'status': 'accepted'}))
        self.assertEqual(['failed', 'done'], self._statuses({'instance_uuid': 'server-1'}))
        self.assertEqual([], self._statuses({'migration_type': 'live-migration'}))
        since = datetime.datetime(2026, 1, 1, 2, 0)
        # the accepted one was never updated: outside any window
        self.assertEqual(['completed', 'failed'], self._statuses({'changes_since': since}))
        self.assertEqual(['done'], self._statuses({'changes_before': since}))


class DbApiSQLiteTest(_ServiceTests, _InstanceTests, _FlavorTests, _MigrationListTests,
                      backends.BackendTestCase):
    BACKEND = 'sqlite'


class DbApiMySQLTest(_ServiceTests, _InstanceTests, _FlavorTests, _MigrationListTests,
                     backends.BackendTestCase):
    BACKEND = 'mysql'


class DbApiPostgreSQLTest(_ServiceTests, _InstanceTests, _FlavorTests, _MigrationListTests,
                          backends.BackendTestCase):
    BACKEND = 'postgresql'
