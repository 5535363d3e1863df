"""A database server that accepts connections and never answers (a TcpProxy
in "hang" mode in front of the real MariaDB or PostgreSQL): every DB API
call gives up within the bound [database] response_timeout sets and raises
DBConnectionError; the API answers 503 serviceUnavailable within its
documented multiple; everything works again, on the same engine, once the
server answers; a wait allowed explicitly (a long poll) is not cut; and a
process that does not serve (nova-manage, tools) never gives up.

Durations are checked against the bound only: at least one bound (it did
wait, it did not fail for another reason), at most the documented multiple
plus a generous margin for a loaded machine."""
import time

import fixtures
import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova.api.openstack import wsgi_app
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.db import waits
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import tcp_proxy
from nova.tests.functional.db import backends

BOUND = 1.0
MARGIN = 10.0      # a loaded CI machine, never a tight figure
SLEEP = {'mysql': 'SELECT SLEEP(%g)', 'postgresql': 'SELECT pg_sleep(%g)'}


class _HungDatabaseTests:

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.FakeLogger())
        database = backends.create_or_skip(self, self.BACKEND)
        self.proxy = self.useFixture(tcp_proxy.TcpProxy(database.server_address))
        backends.override(self, 'connection', database.via('127.0.0.1', self.proxy.port),
                          group='database')
        backends.override(self, 'response_timeout', BOUND, group='database')
        backends.override(self, 'max_retries', 0, group='database')
        waits.enable()                     # as nova-api's workers and nova-compute do
        self.addCleanup(waits.disable)
        engine.reset()
        self.addCleanup(engine.reset)
        from nova.db import migration
        migration.db_sync()
        nova_fixtures.add_service('h1')

    def timed(self, call, *args):
        """(seconds, exception) of a call expected to fail."""
        started = time.monotonic()
        try:
            call(*args)
        except Exception as exc:
            return time.monotonic() - started, exc
        self.fail('%s did not fail on a hung database' % call)

    def test_every_call_gives_up_within_the_bound_and_recovers(self):
        service_db.service_list()                  # a pooled connection, then the hang
        self.proxy.hang()
        for call, args in ((service_db.service_list, ()), (dbtime.db_time, ()),
                           (service_db.service_heartbeat, (1,)), (service_db.service_list, ())):
            took, exc = self.timed(call, *args)
            self.assertIsInstance(exc, db_exc.DBConnectionError, call)
            # a pooled connection: its ping, then one reconnection
            self.assertGreaterEqual(took, BOUND, call)
            self.assertLess(took, 2 * BOUND + MARGIN, call)
        self.proxy.resume()
        self.assertEqual(['h1'], [s['host'] for s in service_db.service_list()])
        self.assertTrue(service_db.service_heartbeat(service_db.service_list()[0]['id']))

    def test_api_answers_503_within_the_bound(self):
        self.useFixture(nova_fixtures.Policy())
        api = nova_fixtures.API()
        api.app = wsgi_app.load_app()
        self.assertEqual(200, api.request('GET', '/v2.1/os-services').status_int)
        self.proxy.hang()
        for method, path, body, most in (
                # a read is tried once more on a fresh connection
                ('GET', '/v2.1/servers/detail', None, 3),
                ('GET', '/v2.1/os-services', None, 3),
                ('POST', '/v2.1/servers', {'server': {
                    'name': 'x', 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1'}}, 2),
                ('PUT', '/v2.1/os-services/disable',
                 {'host': 'h1', 'binary': 'nova-compute'}, 2)):
            started = time.monotonic()
            resp = api.request(method, path, version='2.16', body=body)
            took = time.monotonic() - started
            self.assertEqual(503, resp.status_int, (path, resp.body))
            self.assertEqual(['serviceUnavailable'], list(resp.json), path)
            self.assertEqual('compute 2.16', resp.headers['OpenStack-API-Version'])
            self.assertGreaterEqual(took, BOUND, path)
            self.assertLess(took, most * BOUND + MARGIN, path)
        self.proxy.resume()
        resp = api.request('GET', '/v2.1/os-services')
        self.assertEqual((200, 'enabled'), (resp.status_int, resp.json['services'][0]['status']))

    def sleep(self):
        """A statement the server takes longer than the bound to answer."""
        with engine.reader() as conn:
            conn.execute(sa.text(SLEEP[self.BACKEND] % (BOUND + 1)))

    def test_a_wait_allowed_explicitly_is_not_cut(self):
        self.assertRaises(db_exc.DBConnectionError, self.sleep)
        with waits.allowing(BOUND + 30):
            self.sleep()
        # and the bound is back for the next statement on the same pool
        self.assertRaises(db_exc.DBConnectionError, self.sleep)

    def test_a_process_that_does_not_serve_waits_as_long_as_it_takes(self):
        waits.disable()
        engine.reset()
        self.sleep()
        with waits.allowing(BOUND / 2):     # exempting never adds a bound
            self.sleep()


class HungMySQLTest(_HungDatabaseTests, backends.testtools.TestCase):
    BACKEND = 'mysql'


class HungPostgreSQLTest(_HungDatabaseTests, backends.testtools.TestCase):
    BACKEND = 'postgresql'
