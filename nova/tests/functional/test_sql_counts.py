"""Statements and policy checks per request, counted in-process on the real
WSGI app, on SQLite, MariaDB/MySQL and PostgreSQL.

Every statement SQLAlchemy sends is counted (before_cursor_execute),
transaction control included: on SQLite that is oslo.db's own BEGIN; the
MySQL and PostgreSQL drivers begin transactions without a statement.
Nothing is excluded. Each request is made once unmeasured first, so a
connection's one-time setup is not counted.

These fail if a per-server (or per-host) query or policy check creeps
back in: the counts for 10 servers on 5 hosts and for 1000 servers on 1000
hosts must be equal. Time is measured by benchmarks/, never here.
"""
import datetime
import json
import uuid as uuidlib

import fixtures
import sqlalchemy as sa
from oslo_policy import policy as oslo_policy

from nova.db import instance_tags as tag_db

from nova.db import instances as instance_db

from nova.db import services as service_db
from nova.db import engine
from nova.db.dbtime import db_now
from nova.db.models import instance_faults, instance_tags, instances, services
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends

ADMIN, MEMBER = 'admin:admin', 'demo:demo'
SMALL, LARGE = (10, 5), (1000, 1000)      # (servers, hosts)


def seed(servers, hosts):
    """``servers`` servers of project demo spread over ``hosts`` hosts, in
    every host_status, some ERROR with a fault and some without a host."""
    with engine.writer() as conn:
        now = conn.scalar(sa.select(db_now()))
        old = now - datetime.timedelta(days=1)
        conn.execute(sa.insert(services), [dict(
            uuid=str(uuidlib.uuid4()), host='host-%04d' % h, binary=service_db.COMPUTE_BINARY,
            report_count=1, disabled=h % 4 == 1, forced_down=h % 4 == 2, deleted=0,
            created_at=old, last_seen_up=old if h % 4 == 3 else now) for h in range(hosts)])
        rows = []
        for i in range(servers):
            error = i % 10 == 0
            rows.append(dict(
                uuid=str(uuidlib.uuid4()), display_name='s%d' % i, hostname='s%d' % i,
                project_id='demo', user_id='demo', flavor_id='1', reservation_id='r-x',
                host=None if i % 7 == 0 else 'host-%04d' % (i % hosts),
                vm_state='error' if error else 'active', power_state=1,
                metadata=json.dumps({'k': str(i % 3)}), security_groups='["default"]',
                flavor_name='m1.tiny', memory_mb=512, vcpus=1, root_gb=1, ephemeral_gb=0,
                swap=0, display_description='server %d' % i,
                tags=tag_db.tags_text([t for t, every in (('even', 2), ('third', 3))
                                   if i % every == 0]),
                created_at=now - datetime.timedelta(seconds=i), updated_at=now, deleted=0))
        conn.execute(sa.insert(instances), rows)
        # tags (2.26): 'even' on every other server, 'third' on every third
        conn.execute(sa.insert(instance_tags), [
            dict(resource_id=r['uuid'], tag=tag) for i, r in enumerate(rows)
            for tag, every in (('even', 2), ('third', 3)) if i % every == 0])
        conn.execute(sa.insert(instance_faults), [dict(
            instance_uuid=r['uuid'], code=500, message='boom', created_at=now, deleted=0)
            for r in rows if r['vm_state'] == 'error'])


class _CountTests:

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Policy())
        self.api = nova_fixtures.API()
        self.statements = []
        listen = (engine.get_engine(), 'before_cursor_execute', self._statement)
        sa.event.listen(*listen)
        self.addCleanup(sa.event.remove, *listen)
        self.checks = []
        real_authorize = oslo_policy.Enforcer.authorize

        def counting_authorize(enforcer, rule, *args, **kwargs):
            self.checks.append(rule)
            return real_authorize(enforcer, rule, *args, **kwargs)
        self.useFixture(fixtures.MonkeyPatch(
            'oslo_policy.policy.Enforcer.authorize', counting_authorize))

    def _statement(self, conn, cursor, statement, parameters, context, executemany):
        self.statements.append(statement)

    def measure(self, path, token, version, status=200):
        """(statements, policy checks, body) of one request, warmed up."""
        self.api.request('GET', path, token=token, version=version)
        self.statements, self.checks = [], []
        resp = self.api.request('GET', path, token=token, version=version)
        self.assertEqual(status, resp.status_int, resp.body[:300])
        return len(self.statements), len(self.checks), resp.json

    def counts(self, servers, hosts):
        """{request: (statements, policy checks)} at one population."""
        seed(servers, hosts)
        with engine.reader() as conn:
            order = [r['uuid'] for r in
                     instance_db.instance_list(conn, {}, ['created_at', 'id'], ['desc', 'desc'], servers)]
        half, found = servers // 2, {}
        short = 'limit=10'
        detail = '/v2.1/servers/detail?all_tenants=1&'
        requests = {
            # no limit: a page of up to [api] max_limit (1000) servers
            'detail admin': (detail, ADMIN),
            'detail admin short page': (detail + short, ADMIN),
            'detail member': ('/v2.1/servers/detail', MEMBER),
            'detail admin after marker': (detail + 'marker=' + order[half - 1], ADMIN),
            'detail admin short page after marker': (
                detail + short + '&marker=' + order[half - 1], ADMIN),
            'detail admin after the last': (detail + 'marker=' + order[-1], ADMIN),
            'detail admin filtered': (detail + 'host_status=UNKNOWN,MAINTENANCE', ADMIN),
            'detail admin tag filtered': (detail + 'tags=even,third&not-tags-any=x', ADMIN),
            'show admin': ('/v2.1/servers/%s' % order[1], ADMIN),
            'show member': ('/v2.1/servers/%s' % order[1], MEMBER),
        }
        for name, (path, token) in requests.items():
            for version in ('2.15', '2.16', '2.53'):
                statements, checks, body = self.measure(path, token, version)
                found[name, version] = statements, checks
                if name in ('detail admin', 'detail admin short page'):
                    self.assertEqual(order[:len(body['servers'])],
                                     [s['id'] for s in body['servers']])
                    self.assertEqual(version != '2.15',
                                     all('host_status' in s for s in body['servers']))
                if name == 'detail admin after marker':
                    self.assertEqual(order[half:], [s['id'] for s in body['servers']])
        return found

    def test_counts_do_not_grow_with_servers_or_hosts(self):
        small = self.counts(*SMALL)
        self._empty_tables()
        self.assertEqual(small, self.counts(*LARGE))

    def test_statement_budget(self):
        found = self.counts(*SMALL)
        for (name, version), (statements, _) in found.items():
            self.assertLessEqual(statements, 3, (name, version))
        # host_status: its hosts' services joined into the page or the
        # show statement (one plan for every page), none where policy hides it
        stmts = {key: value[0] for key, value in found.items()}
        for name in {name for name, _ in found}:
            self.assertEqual(stmts[name, '2.15'], stmts[name, '2.16'], name)
        # 2.53's tags, description and embedded flavor come in the same
        # statements as 2.16's page
        for name in {name for name, _ in stmts}:
            self.assertEqual(stmts[name, '2.16'], stmts[name, '2.53'], name)
        for name in ('detail admin', 'detail admin short page'):
            self.assertEqual(2 if self.BACKEND == 'sqlite' else 1, stmts[name, '2.16'], name)

    def test_the_host_status_filter_agrees_with_the_statuses_shown(self):
        seed(*SMALL)
        path = '/v2.1/servers/detail?all_tenants=1'
        shown = self.api.request('GET', path, token=ADMIN, version='2.16').json['servers']
        for value in ('UP', 'DOWN', 'MAINTENANCE', 'UNKNOWN'):
            resp = self.api.request('GET', path + '&host_status=' + value, token=ADMIN,
                                    version='2.16')
            self.assertEqual([s['id'] for s in shown if s['host_status'] == value],
                             [s['id'] for s in resp.json['servers']], value)
            self.assertNotEqual([], resp.json['servers'], value)

    def test_tag_filters_page_exactly(self):
        seed(*SMALL)
        path = '/v2.1/servers/detail?all_tenants=1'
        shown = self.api.request('GET', path, token=ADMIN, version='2.53').json['servers']
        self.assertEqual(['even', 'third'], shown[0]['tags'])
        for query, keep in (('tags=even,third', lambda t: {'even', 'third'} <= t),
                            ('tags-any=even,third', lambda t: bool(t & {'even', 'third'})),
                            ('not-tags=even,third', lambda t: not {'even', 'third'} <= t),
                            ('not-tags-any=even,third',
                             lambda t: not t & {'even', 'third'})):
            wanted = [s['id'] for s in shown if keep(set(s['tags']))]
            self.assertNotEqual([], wanted, query)
            got, marker = [], ''
            while True:
                page = self.api.request('GET', '%s&%s&limit=2%s' % (path, query, marker),
                                        token=ADMIN, version='2.53').json['servers']
                got += [s['id'] for s in page]
                if len(page) < 2:
                    break
                marker = '&marker=' + page[-1]['id']
            self.assertEqual(wanted, got, query)
            # below 2.26 the filters are ignored, as Nova ignores them
            below = self.api.request('GET', '%s&%s' % (path, query), token=ADMIN,
                                     version='2.25').json['servers']
            self.assertEqual(len(shown), len(below), query)

    def test_policy_checks_are_per_request(self):
        found = self.counts(*SMALL)
        for key, (_, checks) in found.items():
            self.assertLessEqual(checks, 7, key)

    def test_unknown_marker_is_400_within_budget(self):
        seed(*SMALL)
        statements, _, body = self.measure(
            '/v2.1/servers/detail?marker=%s' % uuidlib.uuid4(), ADMIN, '2.16', status=400)
        self.assertIn('badRequest', body)
        self.assertLessEqual(statements, 3)


class SqlCountsSQLiteTest(_CountTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class SqlCountsMySQLTest(_CountTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class SqlCountsPostgreSQLTest(_CountTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
