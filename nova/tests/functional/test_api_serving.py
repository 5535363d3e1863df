"""nova-api's default server (uWSGI, nova/cmd/api_uwsgi.py) as the
all-in-one runs it: a SIGTERM lets the request in flight finish with its
answer, and the all-in-one starts again at once on the same ports; the
gunicorn mode ([api] server = gunicorn) still serves with the same limits."""
import http.client
import signal
import socket
import subprocess
import threading
import time

import testtools

from nova.tests.functional import fixtures as func

FEED = '/v2.1/os-host-status-events'


def started(nova, test):
    """The all-in-one of ``nova`` (no computes) once its API answers."""
    test.useFixture(nova)
    nova._wait(lambda: nova.request('GET', '/').status == 200, 90, 'the API')
    nova.attach_logs_on_failure(test)
    return nova


def accepted_by(processes, client_port):
    """Whether one of ``processes`` holds the server's end of the client's
    connection (the request reached a worker, not just the listen queue)."""
    for process in processes:
        try:
            for conn in process.net_connections('tcp'):
                if conn.raddr and conn.raddr.port == client_port:
                    return True
        except func.psutil.NoSuchProcess:
            continue
    return False


class GracefulStopTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.nova = started(func.AllInOne(hosts=0, api_workers=2), self)

    def test_sigterm_finishes_the_request_in_flight_then_restarts_at_once(self):
        cursor = self.nova.request('GET', FEED).json['next']
        # connections of a previous life, closed by the server first: TIME-WAIT
        for _ in range(5):
            response = self.nova.request('GET', '/v2.1/servers')
            self.assertEqual(200, response.status)
            # HTTP/1.1's Date, as gunicorn sent it (uWSGI does not by itself)
            self.assertTrue(response.header('Date').endswith(' GMT'), response.headers)
        conn = http.client.HTTPConnection('127.0.0.1', self.nova.port, timeout=60)
        conn.connect()
        client_port = conn.sock.getsockname()[1]
        answer, sent = {}, threading.Event()

        def long_poll():
            conn.request('GET', FEED + '?wait=3&after=' + cursor,
                         headers={'X-Auth-Token': func.ADMIN})
            sent.set()
            response = conn.getresponse()
            answer['status'], answer['body'] = response.status, response.read()
            answer['at'] = time.monotonic()
        thread = threading.Thread(target=long_poll)
        thread.start()
        api = self.nova.api_process()
        self.nova._wait(lambda: sent.is_set() and accepted_by(self.nova.api_worker_processes(), client_port),
                        20, 'the long poll in a worker')
        stopped_at = time.monotonic()
        api.send_signal(signal.SIGTERM)
        thread.join(30)
        self.assertEqual(200, answer.get('status'), answer)
        self.assertIn(b'"events"', answer['body'])
        # answered at the end of its wait, not cut short by the stop
        self.assertGreater(answer['at'] - stopped_at, 1.0)
        api.wait(30)
        # the all-in-one stops with its API; a new one binds the same ports at once
        self.nova.process.wait(30)
        again = subprocess.Popen(self.nova.process.args, stdout=self.nova.log,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        self.addCleanup(func.terminate, again)
        self.nova._wait(lambda: again.poll() is None and self.nova.request(
            'GET', '/v2.1/servers').status == 200, 60, 'the restarted API')
        self.assertIsNone(again.poll())


class GunicornModeTest(testtools.TestCase):

    def test_gunicorn_serves_with_the_same_limits(self):
        nova = started(func.AllInOne(hosts=0, extra_config='[api]\nserver = gunicorn\n'), self)
        self.assertEqual('gunicorn', _server_of(nova))
        self.assertEqual(200, nova.request('GET', '/v2.1/servers').status)
        with socket.create_connection(('127.0.0.1', nova.port), timeout=30) as sock:
            sock.sendall(b'GET /v2.1/servers?name=' + b'a' * 5000 + b' HTTP/1.1\r\n'
                         b'Host: x\r\n\r\n')
            self.assertIn(b' 414 ', sock.recv(100))


def _server_of(nova):
    names = ' '.join(' '.join(p.cmdline()) for p in
                     nova.api_process().children(recursive=True))
    return 'uwsgi' if 'uWSGI' in names or 'uwsgi' in names else 'gunicorn'
