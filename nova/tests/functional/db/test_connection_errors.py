"""What a user sees when the database cannot be reached: a 503
serviceUnavailable fault, at once, on every dialect; and a read whose
connection dropped under it is answered from a fresh connection.

No database server is needed: the URLs point at a closed local port."""
import time

import fixtures
from oslo_db import exception as db_exc
import testtools

from nova.api.openstack import app
from nova.api.openstack import wsgi_app
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import fixtures as func
from nova.tests.functional.db import backends

DRIVERS = {'mysql': 'mysql+pymysql://nova:nova@127.0.0.1:%d/nova',
           'postgresql': 'postgresql+psycopg2://nova:nova@127.0.0.1:%d/nova'}


class _UnreachableTests:

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.FakeLogger())     # the API logs each 503's cause
        backends.override(self, 'connection', DRIVERS[self.DIALECT] % func.free_port(),
                          group='database')
        engine.reset()
        self.addCleanup(engine.reset)

    def test_refused_connection_is_a_connection_error(self):
        # PostgreSQL's libpq >= 14 words this in a way oslo.db did not
        # recognise: it came out as a bare OperationalError (an API 500).
        backends.override(self, 'max_retries', 0, group='database')
        self.assertRaises(db_exc.DBConnectionError, dbtime.db_time)
        self.assertRaises(db_exc.DBConnectionError, service_db.service_list)

    def test_engine_start_retries_then_gives_a_connection_error(self):
        backends.override(self, 'max_retries', 2, group='database')
        backends.override(self, 'retry_interval', 0, group='database')
        self.assertRaises(db_exc.DBConnectionError, dbtime.db_time)

    def test_api_answers_503_at_once(self):
        self.useFixture(nova_fixtures.Policy())
        api = nova_fixtures.API()
        api.app = wsgi_app.load_app()
        for method, path, body in (
                ('GET', '/v2.1/servers/detail', None),
                ('GET', '/v2.1/os-services', None),
                ('POST', '/v2.1/servers', {'server': {
                    'name': 'x', 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1'}})):
            started = time.monotonic()
            resp = api.request(method, path, version='2.16', body=body)
            self.assertLess(time.monotonic() - started, 5, path)
            self.assertEqual(503, resp.status_int, path)
            self.assertEqual({'serviceUnavailable': {
                'code': 503, 'message': 'The database is unavailable; try again shortly.'}},
                resp.json)
            self.assertEqual('compute 2.16', resp.headers['OpenStack-API-Version'])


class UnreachableMySQLTest(_UnreachableTests, testtools.TestCase):
    DIALECT = 'mysql'


class UnreachablePostgreSQLTest(_UnreachableTests, testtools.TestCase):
    DIALECT = 'postgresql'


class _Request:
    def __init__(self, method):
        self.method = method
        self.path = '/v2.1/servers'


class ReadRetryTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.FakeLogger())

    def _handler(self, failures):
        calls = []

        def handler(req):
            calls.append(req.method)
            if len(calls) <= failures:
                raise db_exc.DBConnectionError('connection dropped')
            return {'ok': True}
        return handler, calls

    def test_a_read_is_run_again_once(self):
        handler, calls = self._handler(failures=1)
        self.assertEqual({'ok': True}, app.call_handler(handler, _Request('GET'), {}))
        self.assertEqual(['GET', 'GET'], calls)

    def test_a_read_failing_twice_reports_the_outage(self):
        handler, calls = self._handler(failures=2)
        self.assertRaises(db_exc.DBConnectionError,
                          app.call_handler, handler, _Request('GET'), {})
        self.assertEqual(2, len(calls))

    def test_a_write_is_never_run_twice(self):
        for method in ('POST', 'PUT', 'DELETE'):
            handler, calls = self._handler(failures=1)
            self.assertRaises(db_exc.DBConnectionError,
                              app.call_handler, handler, _Request(method), {})
            self.assertEqual([method], calls)
