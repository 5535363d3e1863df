"""The read statements behind servers/detail and show, on SQLite,
MariaDB/MySQL and PostgreSQL: a uuid marker resolved inside the page query
pages exactly like a looked-up marker row, and the service row joined beside
each server (show, and detail where host_status is shown) is the one
os-services reads for its host."""
import datetime
import json
import uuid as uuidlib

import sqlalchemy as sa

from nova.compute import host_status as hs
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import models
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

SORTS = ((['created_at', 'id'], ['desc', 'desc']),
         (['display_name', 'id'], ['asc', 'asc']),
         (['key_name', 'id'], ['asc', 'desc']),      # nullable, mixed directions
         (['launch_index', 'id'], ['desc', 'desc']))


def _server(index, **values):
    row = dict(uuid=str(uuidlib.uuid4()), display_name='s%02d' % (index % 5),
               hostname='s', project_id='p1' if index % 3 else 'p2', user_id='u1',
               flavor_id='1', reservation_id='r-1', metadata=json.dumps({}),
               key_name=None if index % 2 else 'k%d' % (index % 4),
               launch_index=index % 3, host='h1', node='h1', vm_state='active')
    row.update(values)
    return row


class _PageTests:

    def _walk(self, conn, filters, keys, dirs, marker_of):
        seen, marker = [], None
        while True:
            page = instance_db.instance_list(conn, filters, keys, dirs, 4, marker)
            if not page:
                return seen
            seen += [r['uuid'] for r in page]
            marker = marker_of(conn, page[-1]['uuid'])

    def test_uuid_marker_pages_like_a_marker_row(self):
        instance_db.instances_create([_server(i) for i in range(13)])
        for filters in ({}, {'project_id': 'p1'}):
            for keys, dirs in SORTS:
                with engine.reader() as conn:
                    whole = [r['uuid'] for r in
                             instance_db.instance_list(conn, filters, keys, dirs, 100)]
                    by_row = self._walk(conn, filters, keys, dirs, instance_db.instance_marker)
                    by_uuid = self._walk(conn, filters, keys, dirs, lambda c, u: u)
                self.assertEqual(whole, by_row, (filters, keys, dirs))
                self.assertEqual(whole, by_uuid, (filters, keys, dirs))

    def test_unknown_or_last_marker_gives_an_empty_page(self):
        rows = [_server(i) for i in range(3)]
        instance_db.instances_create(rows)
        with engine.reader() as conn:
            last = instance_db.instance_list(conn, {}, ['id'], ['asc'], 10)[-1]['uuid']
            for marker in (last, str(uuidlib.uuid4())):
                self.assertEqual([], instance_db.instance_list(conn, {}, ['id'], ['asc'], 10, marker))

    def test_a_deleted_marker_still_marks_its_place(self):
        rows = [_server(i) for i in range(4)]
        instance_db.instances_create(rows)
        with engine.reader() as conn:
            order = [r['uuid'] for r in instance_db.instance_list(conn, {}, ['id'], ['asc'], 10)]
        instance_db.instance_destroy(order[1])
        with engine.reader() as conn:
            page = instance_db.instance_list(conn, {}, ['id'], ['asc'], 10, order[1])
        self.assertEqual(order[2:], [r['uuid'] for r in page])

    def test_filters_bind_their_values(self):
        instance_db.instances_create([_server(i, vm_state=('active', 'stopped', 'error')[i % 3])
                             for i in range(9)])
        with engine.reader() as conn:
            for states, count in ((['active'], 3), (['active', 'error'], 6)):
                rows = instance_db.instance_list(conn, {'vm_state': states}, ['id'], ['asc'], 100)
                self.assertEqual(count, len(rows), states)
            self.assertEqual(6, len(instance_db.instance_list(conn, {'project_id': 'p1'},
                                                              ['id'], ['asc'], 100)))
            for limit in (2, 5):     # one cached statement, the limit bound
                self.assertEqual(limit, len(instance_db.instance_list(conn, {}, ['id'], ['asc'],
                                                                      limit)))


class _ServiceJoinTests:

    def _services(self, uuid):
        """The host's service as show and as a detail page read it joined."""
        with engine.reader() as conn:
            shown = instance_db.instance_get(conn, uuid, with_service=True)
            page = instance_db.instance_list(conn, {}, ['id'], ['asc'], 100, with_service=True)
            listed = [r for r in page if r['uuid'] == uuid]
        return [service_db.joined_compute_services([shown]), service_db.joined_compute_services(listed)]

    def test_the_joined_service_is_the_live_compute_row(self):
        nova_fixtures.add_service('h-old', forced_down=True, deleted=True)
        nova_fixtures.add_service('h-old', disabled=True)
        nova_fixtures.add_service('h-other-binary', binary='nova-scheduler')
        expected = {'h-old': hs.MAINTENANCE, 'h-other-binary': hs.NONE,
                    'h-ghost': hs.NONE, None: hs.NONE}
        for host, status in expected.items():
            server = _server(0, host=host, node=host)
            instance_db.instances_create([server])
            for services in self._services(server['uuid']):
                found = hs.by_host(services, {h for h, s in services.items() if s['is_up']})
                self.assertEqual(status, found.get(host, hs.NONE), host)

    def test_the_join_changes_no_page(self):
        nova_fixtures.add_service('h1')
        instance_db.instances_create([_server(i, host=('h1', 'h2', None)[i % 3]) for i in range(9)])
        with engine.reader() as conn:
            for keys, dirs in SORTS:
                plain = instance_db.instance_list(conn, {}, keys, dirs, 100)
                joined = instance_db.instance_list(conn, {}, keys, dirs, 100, with_service=True)
                self.assertEqual([r['uuid'] for r in plain], [r['uuid'] for r in joined])

    def test_without_the_join_there_is_no_service(self):
        server = _server(0)
        instance_db.instances_create([server])
        with engine.reader() as conn:
            row = instance_db.instance_get(conn, server['uuid'])
            listed = instance_db.instance_list(conn, {}, ['id'], ['asc'], 10)[0]
        self.assertNotIn('service_host', row)
        self.assertNotIn('service_host', listed)


class _DeepPageTests:
    """A page after a marker deep in the default order starts at the marker
    in the index (a range), instead of walking every row before it."""

    SERVERS = 3000

    def _deep_page_plan(self, filters):
        start = datetime.datetime(2026, 1, 1)
        with engine.writer() as conn:
            conn.execute(sa.insert(models.instances), [
                dict(_server(i, project_id='p1'), deleted=0,
                     created_at=start + datetime.timedelta(seconds=i))
                for i in range(self.SERVERS)])
            for statement in self.ANALYZE:
                conn.exec_driver_sql(statement).close()
        deep = self.SERVERS * 9 // 10
        with engine.reader() as conn:
            order = [r['uuid'] for r in instance_db.instance_list(
                conn, filters, ['created_at', 'id'], ['desc', 'desc'], self.SERVERS)]
            marker = order[deep]
            query = instance_db._page_query(False, tuple(filters), ('created_at', 'id'),
                                            ('desc', 'desc'), 'uuid', False)
            compiled = query.compile(dialect=conn.dialect)
            values = dict(compiled.params, limit=100, marker=marker, **filters)
            params = (tuple(values[k] for k in compiled.positiontup)
                      if compiled.positional else values)
            plan = conn.exec_driver_sql(self.EXPLAIN + compiled.string, params).fetchall()
            page = instance_db.instance_list(conn, filters, ['created_at', 'id'], ['desc', 'desc'],
                                             100, marker)
        self.assertEqual(order[deep + 1:deep + 101], [r['uuid'] for r in page])
        return plan

    def test_a_deep_page_is_an_index_range_from_the_marker(self):
        for filters in ({}, {'project_id': 'p1'}):
            plan = self._deep_page_plan(filters)
            self.assertTrue(self.starts_at_the_marker(plan), (filters, plan))
            self._empty_tables()


class PageQueriesSQLiteTest(_PageTests, _ServiceJoinTests, _DeepPageTests,
                            backends.BackendTestCase):
    BACKEND = 'sqlite'
    ANALYZE, EXPLAIN = (), 'EXPLAIN QUERY PLAN '

    @staticmethod
    def starts_at_the_marker(plan):
        return any('SEARCH instances USING' in row[-1] and 'created_at<?' in row[-1]
                   for row in plan)


class PageQueriesMySQLTest(_PageTests, _ServiceJoinTests, _DeepPageTests,
                           backends.BackendTestCase):
    BACKEND = 'mysql'
    SERVERS = 100000    # MariaDB walked from the top only at this size
    ANALYZE, EXPLAIN = ('ANALYZE TABLE instances',), 'EXPLAIN '

    @staticmethod
    def starts_at_the_marker(plan):
        # (id, select_type, table, type, ...): the servers' own row
        return [row[3] for row in plan if row[2] == 'instances'] == ['range']


class PageQueriesPostgreSQLTest(_PageTests, _ServiceJoinTests, _DeepPageTests,
                                backends.BackendTestCase):
    BACKEND = 'postgresql'
    ANALYZE, EXPLAIN = ('ANALYZE instances',), 'EXPLAIN '

    @staticmethod
    def starts_at_the_marker(plan):
        conditions = [row[0] for row in plan if 'Index Cond' in row[0]]
        return any('created_at' in line for line in conditions)
