"""The liveness rule and the host_status mapping, evaluated by SQLite,
MariaDB/MySQL and PostgreSQL exactly as the API evaluates them: in the
statement that reads the servers (show and detail) or the services."""
import datetime
import types

import sqlalchemy as sa

from nova.compute import api as compute
from nova.compute import host_status as hs
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.db import liveness
from nova.db import models
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

DOWN_TIME = 60
ADMIN = types.SimpleNamespace(is_admin=True, project_id='admin')


class _LivenessTests:

    def setUp(self):
        super().setUp()
        backends.override(self, 'service_down_time', DOWN_TIME)

    def host_statuses(self, uuid):
        """What show and a detail page (its hosts' services joined in both)
        render for it."""
        row, shown = compute.show(ADMIN, uuid, with_host_status=True)
        rows, statuses = compute.get_all({}, ['id'], ['asc'], 1000, None, True)
        self.assertIn(uuid, [r['uuid'] for r in rows])
        return {shown.get(row['host'], hs.NONE), statuses.get(row['host'], hs.NONE)}

    def host_status(self, uuid):
        """The one answer all three ways give."""
        found = self.host_statuses(uuid)
        self.assertEqual(1, len(found), found)
        return found.pop()

    def heartbeat_age(self, host):
        """Seconds since the host's heartbeat, on the database's clock."""
        with engine.reader() as conn:
            return conn.scalar(sa.select(liveness.heartbeat_age(models.services)).where(
                models.services.c.host == host, models.services.c.deleted == 0))

    def test_one_page_for_many_hosts(self):
        expected = {}
        for index in range(37):
            host = 'host-%02d' % index
            nova_fixtures.add_service(host, seconds_ago=7200 if index % 3 else 1,
                                      disabled=index % 5 == 0)
            nova_fixtures.add_server('vm-%02d' % index, host=host)
            expected[host] = (hs.MAINTENANCE if index % 5 == 0 else
                              hs.UNKNOWN if index % 3 else hs.UP)
        nova_fixtures.add_server('vm-unregistered', host='host-unregistered')
        nova_fixtures.add_server('vm-unscheduled', host=None)
        _, found = compute.get_all({}, ['id'], ['asc'], 1000, None, True)
        self.assertEqual(expected, found)

    def is_up(self, host):
        return service_db.service_list(host=host, binary=service_db.COMPUTE_BINARY)[0]['is_up']

    def test_every_precedence_case(self):
        cases = [
            # forced_down, disabled, heartbeat fresh -> host_status
            (True, True, True, hs.DOWN),
            (True, True, False, hs.DOWN),
            (True, False, True, hs.DOWN),
            (True, False, False, hs.DOWN),
            (False, True, True, hs.MAINTENANCE),
            (False, True, False, hs.MAINTENANCE),
            (False, False, True, hs.UP),
            (False, False, False, hs.UNKNOWN),
        ]
        for index, (forced_down, disabled, fresh, expected) in enumerate(cases):
            host = 'host-%d' % index
            nova_fixtures.add_service(host, seconds_ago=1 if fresh else 7200,
                                      disabled=disabled, forced_down=forced_down)
            uuid = nova_fixtures.add_server('vm-%d' % index, host=host)
            self.assertEqual(expected, self.host_status(uuid), (forced_down, disabled, fresh))
            self.assertEqual(fresh and not forced_down, bool(self.is_up(host)))

    def test_no_live_compute_service_is_empty(self):
        nova_fixtures.add_service('host-gone', deleted=True)
        nova_fixtures.add_service('host-scheduler', binary='nova-scheduler')
        for host in (None, 'host-gone', 'host-scheduler', 'host-never-registered'):
            uuid = nova_fixtures.add_server('vm', host=host)
            self.assertEqual(hs.NONE, self.host_status(uuid), host)

    def test_a_reborn_service_decides_not_its_deleted_predecessor(self):
        nova_fixtures.add_service('host-1', forced_down=True, deleted=True)
        nova_fixtures.add_service('host-1', disabled=True, deleted=True)
        nova_fixtures.add_service('host-1')
        uuid = nova_fixtures.add_server('vm', host='host-1')
        self.assertEqual(hs.UP, self.host_status(uuid))

    def test_window_edges(self):
        """Sub-second precision, in both directions. Each answer is held to
        the heartbeat's age read on the database's clock just before and
        just after it: on a slow machine the age may cross the edge in
        between, and then either answer is right."""
        for seconds_ago in (DOWN_TIME - 0.3, DOWN_TIME + 0.3, -(DOWN_TIME - 0.3),
                            -(DOWN_TIME + 0.3), -3600, 7200):
            host = 'host-%s' % seconds_ago
            nova_fixtures.add_service(host, seconds_ago=seconds_ago)
            uuid = nova_fixtures.add_server('vm', host=host)
            before = self.heartbeat_age(host)
            answers = self.host_statuses(uuid) | {hs.UP if self.is_up(host) else hs.UNKNOWN}
            after = self.heartbeat_age(host)
            allowed = {hs.UP if abs(age) <= DOWN_TIME else hs.UNKNOWN for age in (before, after)}
            self.assertLessEqual(answers, allowed, (seconds_ago, before, after))

    def test_forced_down_is_down_even_when_fresh(self):
        nova_fixtures.add_service('host-1', forced_down=True)
        self.assertFalse(self.is_up('host-1'))

    def test_never_reported_counts_from_creation(self):
        for host, created_ago, up in (('host-new', 5, True), ('host-old', DOWN_TIME + 1, False)):
            service_id = nova_fixtures.add_service(host)
            with engine.writer() as conn:
                conn.execute(sa.update(models.services)
                             .where(models.services.c.id == service_id)
                             .values(last_seen_up=None, created_at=dbtime.db_time()
                                     - datetime.timedelta(seconds=created_ago)))
            uuid = nova_fixtures.add_server('vm', host=host)
            self.assertEqual(up, bool(self.is_up(host)), host)
            self.assertEqual(hs.UP if up else hs.UNKNOWN, self.host_status(uuid), host)

    def test_service_down_time_is_read_per_statement(self):
        nova_fixtures.add_service('host-1', seconds_ago=30)
        uuid = nova_fixtures.add_server('vm', host='host-1')
        self.assertEqual(hs.UP, self.host_status(uuid))
        backends.override(self, 'service_down_time', 10)
        self.assertEqual(hs.UNKNOWN, self.host_status(uuid))
        self.assertFalse(self.is_up('host-1'))


class LivenessSQLiteTest(_LivenessTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class LivenessMySQLTest(_LivenessTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class LivenessPostgreSQLTest(_LivenessTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
