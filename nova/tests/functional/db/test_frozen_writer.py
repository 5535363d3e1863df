"""One frozen process does not stop the embedded default (issue 23): a
process SIGSTOPped inside a write transaction on the SQLite file keeps its
write lock. Writers wait for it at most the bound on every database wait
([database] response_timeout), then the API answers 503
serviceUnavailable (never 500) and a starting nova-compute retries instead
of exiting; reads go on (WAL); once the frozen writer is thawed everything
recovers by itself.

Durations are checked against the bound only, with a generous margin for a
loaded machine, as test_hung_database does."""
import os
import signal
import subprocess
import sys
import time

import fixtures
import psutil
import testtools

from nova.db import services as service_db
from nova.db import engine
from nova.db import waits
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import fixtures as func

BOUND = 1.0
MARGIN = 10.0      # a loaded CI machine, never a tight figure
WAIT = 60          # generous bound of every "eventually"

# a writer frozen mid-transaction: it takes the write lock, writes, tells
# the test, stops itself; thawed, it commits and exits
FROZEN_WRITER = """
import os, signal, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute('BEGIN IMMEDIATE')
conn.execute('UPDATE services SET report_count = report_count')
print('locked', flush=True)
os.kill(os.getpid(), signal.SIGSTOP)
conn.execute('COMMIT')
"""


class FrozenWriter(fixtures.Fixture):
    """A real second process holding the SQLite file's write lock, frozen."""

    def __init__(self, path):
        super().__init__()
        self.path = path

    def _setUp(self):
        self.process = subprocess.Popen([sys.executable, '-c', FROZEN_WRITER, self.path],
                                        stdout=subprocess.PIPE, text=True)
        self.addCleanup(self._end)
        if self.process.stdout.readline().strip() != 'locked':
            raise AssertionError('the writer did not take the lock')
        status = psutil.Process(self.process.pid).status
        func.AllInOne._wait(lambda: status() == psutil.STATUS_STOPPED, WAIT, 'the writer frozen')

    def thaw(self):
        """SIGCONT: it commits, which releases the lock, and exits."""
        os.kill(self.process.pid, signal.SIGCONT)
        if self.process.wait(WAIT) != 0:
            raise AssertionError('the writer failed after the thaw')

    def _end(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


class FrozenWriterTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.FakeLogger())     # the API logs each 503's cause
        database = self.useFixture(nova_fixtures.Database())
        self.path = database.connection[len('sqlite:///'):]
        self.useFixture(nova_fixtures.Policy())
        self.useFixture(fixtures.MonkeyPatch(   # as nova-api's workers and nova-compute do
            'nova.conf.CONF.database.response_timeout', BOUND))
        waits.enable()
        self.addCleanup(waits.disable)
        engine.reset()           # new connections: their busy timeout is the bound
        nova_fixtures.add_service('h1')
        self.uuid = nova_fixtures.add_server('vm', host='h1', vm_state='active')
        self.api = nova_fixtures.API()

    def reset_state(self):
        return self.api.request('POST', '/v2.1/servers/%s/action' % self.uuid,
                                body={'os-resetState': {'state': 'error'}})

    def test_api_writes_answer_503_within_the_bound_then_recover(self):
        writer = self.useFixture(FrozenWriter(self.path))
        create = {'server': {'name': 'new', 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1'}}
        for method, path, body in (
                ('POST', '/v2.1/servers/%s/action' % self.uuid,
                 {'os-resetState': {'state': 'error'}}),
                ('POST', '/v2.1/servers', create)):
            started = time.monotonic()
            resp = self.api.request(method, path, version='2.16', body=body)
            waited = time.monotonic() - started
            self.assertEqual(503, resp.status_int, resp.body)
            self.assertEqual({'serviceUnavailable': {
                'code': 503, 'message': 'The database is busy; try again shortly.'}},
                resp.json)
            self.assertEqual('compute 2.16', resp.headers['OpenStack-API-Version'])
            self.assertTrue(BOUND <= waited < BOUND + MARGIN, waited)
        # readers are not held (WAL): the server is as it was
        shown = self.api.request('GET', '/v2.1/servers/%s' % self.uuid, version='2.16')
        self.assertEqual((200, 'ACTIVE'), (shown.status_int, shown.json['server']['status']))
        writer.thaw()
        self.assertEqual(202, self.reset_state().status_int)
        shown = self.api.request('GET', '/v2.1/servers/%s' % self.uuid)
        self.assertEqual('ERROR', shown.json['server']['status'])

    def test_a_compute_starting_meanwhile_retries_then_registers(self):
        writer = self.useFixture(FrozenWriter(self.path))
        compute, log = self._start_compute('h-late')
        func.AllInOne._wait(lambda: (b'cannot write yet (_register' in self._read(log)
                                     or compute.poll() is not None),
                            WAIT, 'the compute to find the lock held')
        self.assertIsNone(compute.poll(), self._read(log))
        self.assertEqual([], service_db.service_list(host='h-late'))
        writer.thaw()
        func.AllInOne._wait(lambda: service_db.service_list(host='h-late'), WAIT,
                            'the compute to register')
        self.assertIsNone(compute.poll(), self._read(log))
        compute.terminate()
        self.assertEqual(0, compute.wait(WAIT), self._read(log))

    def _start_compute(self, host):
        tmp = self.useFixture(fixtures.TempDir()).path
        config = os.path.join(tmp, 'nova.conf')
        with open(config, 'w') as f:
            f.write('[DEFAULT]\nreport_interval = 1\n'
                    '[database]\nconnection = sqlite:///%s\nresponse_timeout = %g\n'
                    '[compute]\nfake_state_dir = %s\n' % (self.path, BOUND, tmp))
        log = os.path.join(tmp, 'compute.log')
        with open(log, 'wb') as out:
            process = subprocess.Popen(
                [sys.executable, '-m', 'nova.cmd.compute', '--host', host,
                 '--config-file', config],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.addCleanup(func.terminate, process)
        return process, log

    @staticmethod
    def _read(path):
        with open(path, 'rb') as f:
            return f.read()
