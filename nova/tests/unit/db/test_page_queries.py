"""The read statements behind servers/detail and show, on SQLite,
MariaDB/MySQL and PostgreSQL: a uuid marker resolved inside the page query
pages exactly like a looked-up marker row, and show's joined service row is
the one a separate services query would find."""
import json
import uuid as uuidlib

from nova.db import api as db
from nova.db import engine
from nova.tests import fixtures as nova_fixtures
from nova.tests.unit.db import backends

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
            page = db.instance_list(conn, filters, keys, dirs, 4, marker)
            if not page:
                return seen
            seen += [r['uuid'] for r in page]
            marker = marker_of(conn, page[-1]['uuid'])

    def test_uuid_marker_pages_like_a_marker_row(self):
        db.instances_create([_server(i) for i in range(13)])
        for filters in ({}, {'project_id': 'p1'}):
            for keys, dirs in SORTS:
                with engine.reader() as conn:
                    whole = [r['uuid'] for r in
                             db.instance_list(conn, filters, keys, dirs, 100)]
                    by_row = self._walk(conn, filters, keys, dirs, db.instance_marker)
                    by_uuid = self._walk(conn, filters, keys, dirs, lambda c, u: u)
                self.assertEqual(whole, by_row, (filters, keys, dirs))
                self.assertEqual(whole, by_uuid, (filters, keys, dirs))

    def test_unknown_or_last_marker_gives_an_empty_page(self):
        rows = [_server(i) for i in range(3)]
        db.instances_create(rows)
        with engine.reader() as conn:
            last = db.instance_list(conn, {}, ['id'], ['asc'], 10)[-1]['uuid']
            for marker in (last, str(uuidlib.uuid4())):
                self.assertEqual([], db.instance_list(conn, {}, ['id'], ['asc'], 10, marker))

    def test_a_deleted_marker_still_marks_its_place(self):
        rows = [_server(i) for i in range(4)]
        db.instances_create(rows)
        with engine.reader() as conn:
            order = [r['uuid'] for r in db.instance_list(conn, {}, ['id'], ['asc'], 10)]
        db.instance_destroy(order[1])
        with engine.reader() as conn:
            page = db.instance_list(conn, {}, ['id'], ['asc'], 10, order[1])
        self.assertEqual(order[2:], [r['uuid'] for r in page])

    def test_filters_bind_their_values(self):
        db.instances_create([_server(i, vm_state=('active', 'stopped', 'error')[i % 3])
                             for i in range(9)])
        with engine.reader() as conn:
            for states, count in ((['active'], 3), (['active', 'error'], 6)):
                rows = db.instance_list(conn, {'vm_state': states}, ['id'], ['asc'], 100)
                self.assertEqual(count, len(rows), states)
            self.assertEqual(6, len(db.instance_list(conn, {'project_id': 'p1'},
                                                     ['id'], ['asc'], 100)))
            for limit in (2, 5):     # one cached statement, the limit bound
                self.assertEqual(limit, len(db.instance_list(conn, {}, ['id'], ['asc'],
                                                             limit)))


class _ServiceJoinTests:

    def _show(self, uuid):
        with engine.reader() as conn:
            row = db.instance_get(conn, uuid, with_service=True)
            found = db.services_liveness(conn, {row['host']}, db.COMPUTE_BINARY) \
                if row['host'] else []
        return row, db.joined_service(row), found

    def test_joined_service_is_the_live_compute_row(self):
        nova_fixtures.add_service('h-old', forced_down=True, deleted=True)
        nova_fixtures.add_service('h-old', disabled=True)
        nova_fixtures.add_service('h-other-binary', binary='nova-scheduler')
        for host in ('h-old', 'h-other-binary', 'h-ghost', None):
            server = _server(0, host=host, node=host)
            db.instances_create([server])
            row, joined, found = self._show(server['uuid'])
            if host == 'h-old':
                self.assertEqual(1, len(found))
                for key in ('host', 'disabled', 'forced_down', 'last_seen_up',
                            'created_at'):
                    self.assertEqual(found[0][key], joined[key], key)
                self.assertTrue(joined['disabled'])
                self.assertFalse(joined['forced_down'])
                self.assertIsNotNone(joined['db_now'])
            else:
                self.assertEqual([], found)
                self.assertIsNone(joined, host)

    def test_without_the_join_there_are_no_service_columns(self):
        server = _server(0)
        db.instances_create([server])
        with engine.reader() as conn:
            row = db.instance_get(conn, server['uuid'])
        self.assertNotIn('service_id', row)


class PageQueriesSQLiteTest(_PageTests, _ServiceJoinTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class PageQueriesMySQLTest(_PageTests, _ServiceJoinTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class PageQueriesPostgreSQLTest(_PageTests, _ServiceJoinTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
