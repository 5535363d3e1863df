"""Latency over HTTP (what a client sees) and SQL statements in-process."""
import http.client
import statistics
import time

import sqlalchemy as sa
import webob

from nova.db import engine

ADMIN = 'admin:admin'
MEMBER = 'demo:demo'


def headers(token, version):
    return {'X-Auth-Token': token, 'Accept': 'application/json',
            'OpenStack-API-Version': 'compute %s' % version}


class Client:
    """One HTTPConnection, reused while the server keeps it alive
    (gunicorn gthread workers do, as a keep-alive client expects)."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection('127.0.0.1', port, timeout=60)

    def get(self, path, token, version):
        try:
            return self._get(path, token, version)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server dropped an idle kept-alive connection (gunicorn's
            # keepalive): connect again, as a client does
            self.conn.close()
            return self._get(path, token, version)

    def _get(self, path, token, version):
        start = time.perf_counter()
        self.conn.request('GET', path, headers=headers(token, version))
        resp = self.conn.getresponse()
        body = resp.read()
        elapsed = time.perf_counter() - start
        if resp.will_close:
            self.conn.close()
        if resp.status != 200:
            raise RuntimeError('%s %s -> %s %s' % (version, path, resp.status, body[:300]))
        return elapsed, body

    def close(self):
        self.conn.close()


class InProcess:
    """The Client's interface on the WSGI app called directly in this
    process, timed in this thread's CPU time: other jobs on a loaded
    machine stretch a request's wall time far more than its CPU time."""

    def __init__(self, app):
        self.app = app

    def get(self, path, token, version):
        req = webob.Request.blank(path, headers=headers(token, version))
        start = time.thread_time()
        resp = req.get_response(self.app)
        elapsed = time.thread_time() - start
        if resp.status_int != 200:
            raise RuntimeError('%s %s -> %s %s' % (version, path, resp.status,
                                                    resp.body[:300]))
        return elapsed, resp.body

    def close(self):
        pass


def summary(samples):
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


class StatementCounter:
    """Counts every statement the process sends (BEGIN included)."""

    def __init__(self):
        self.statements = []
        self._engine = engine.get_engine()
        sa.event.listen(self._engine, 'before_cursor_execute', self._record)

    def _record(self, conn, cursor, statement, parameters, context, executemany):
        self.statements.append(statement)

    def count(self, app, path, token, version):
        """(statements, status, body) of one in-process request."""
        self.statements = []
        req = webob.Request.blank(path, headers=headers(token, version))
        resp = req.get_response(app)
        return len(self.statements), resp.status_int, resp.body

    def close(self):
        sa.event.remove(self._engine, 'before_cursor_execute', self._record)
