"""Server groups in the database, on SQLite, MariaDB/MySQL and PostgreSQL:
two destinations claiming members of one anti-affinity group at the same
moment are judged one after the other (the group's row lock), so only one
member lands; and a deleted server leaves its group's members at once."""
import threading

import sqlalchemy as sa

from nova.compute import server_groups
from nova.db import instances as instance_db
from nova.db import engine
from nova.db import evacuations
from nova.db import models
from nova.db import server_groups as groups_db
from nova.db.dbtime import db_now
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

# how long the first claim holds its transaction open after its check,
# waiting for the second to check too (which it never does while the
# group's lock holds it back): bounded, never a timing assertion
HOLD = 3.0


class _Tests:

    def setUp(self):
        super().setUp()
        self.addCleanup(self._forget)

    @staticmethod
    def _forget():
        with engine.writer() as conn:
            conn.execute(sa.delete(models.instance_group_members))
            conn.execute(sa.delete(models.instance_groups))

    def _group(self, rules=None):
        return server_groups.create(_Context(), 'g', 'anti-affinity', rules)

    def _member(self, group, host):
        uuid = nova_fixtures.add_server('m', host=host, launched_at=db_now())
        with engine.writer() as conn:
            conn.execute(sa.insert(models.instance_group_members).values(
                group_id=group['id'], instance_uuid=uuid))
        return uuid

    def _evacuation_to(self, uuid, host):
        with engine.reader() as conn:
            row = instance_db.instance_get(conn, uuid)
        migration_uuid = evacuations.start(row, ('active',), host)
        return [m for m in evacuations.for_instance(uuid) if m['uuid'] == migration_uuid][0]

    def test_two_claims_at_once_one_member_lands(self):
        group = self._group()
        first, second = self._member(group, 'h-a'), self._member(group, 'h-b')
        moves = [self._evacuation_to(first, 'h-c'), self._evacuation_to(second, 'h-c')]
        checked = [threading.Event(), threading.Event()]
        results = [None, None]

        def late_check(index):
            def check(conn, instance_uuid, host):
                reason = server_groups.late_check(conn, instance_uuid, host)
                checked[index].set()
                if index == 0:
                    # hold the transaction open: the second claim checks
                    # now, unless the group's lock keeps it waiting
                    checked[1].wait(HOLD)
                return reason
            return check

        def claim(index):
            results[index] = evacuations.claim(moves[index], 'h-c', late_check(index))

        threads = [threading.Thread(target=claim, args=(i,)) for i in (0, 1)]
        threads[0].start()
        self.assertTrue(checked[0].wait(30))
        threads[1].start()
        for thread in threads:
            thread.join(60)
        self.assertEqual([True, False], results)
        with engine.reader() as conn:
            hosts = {u: instance_db.instance_get(conn, u)['host'] for u in (first, second)}
        self.assertEqual({first: 'h-c', second: 'h-b'}, hosts)
        self.assertEqual(['failed'], [m['status'] for m in evacuations.for_instance(second)])

    def test_deleted_servers_leave_at_once_and_the_group_goes_with_its_rows(self):
        group = self._group()
        stays, goes = self._member(group, 'h-a'), self._member(group, 'h-b')
        instance_db.instance_destroy(goes)
        self.assertEqual((group['uuid'], [stays]), (groups_db.get(group['uuid'])[0]['uuid'],
                                                    groups_db.get(group['uuid'])[1]))
        self.assertTrue(groups_db.destroy(group['uuid']))
        self.assertIsNone(groups_db.get(group['uuid']))
        with engine.reader() as conn:
            self.assertEqual(0, conn.scalar(sa.select(sa.func.count()).select_from(
                models.instance_group_members)))


class _Context:
    project_id = user_id = 'demo'


class SQLiteTest(_Tests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class MySQLTest(_Tests, backends.BackendTestCase):
    BACKEND = 'mysql'


class PostgreSQLTest(_Tests, backends.BackendTestCase):
    BACKEND = 'postgresql'
