"""How long a process waits for the database server before giving up.

A server that refuses connections fails fast by itself; one that hangs (a
network black hole, a proxy or server that stops forwarding or answering)
would hold an API worker until gunicorn killed it and a compute's
heartbeat for ever. Each wait on the server is bounded by [database]
response_timeout, per driver:

- PyMySQL has connect, read and write timeouts: set on every connection.
- psycopg2 (libpq) has none for reads. statement_timeout is the server's
  and never fires when the server never saw the statement; TCP keepalives
  and TCP_USER_TIMEOUT detect a dead peer, not a live one that stops
  answering (a proxy, a stuck server: their kernel acknowledges our data).
  So psycopg2 runs in its asynchronous mode with a wait callback of ours
  that polls the socket and gives up when the bound is reached: the
  connection is closed, and the error is a disconnect (oslo.db's
  DBConnectionError, the API's 503).

Only the serving processes bound their waits (``enable()``: nova-api's
workers, nova-compute); nova-manage, whose migrations may rightly be long,
and tools that bulk-load data do not. A wait that is long on purpose (a
long poll blocking in one statement) takes ``allowing(seconds)`` around
it; a long poll made of short statements needs nothing, the bound being
per wait, not per request.
"""
import contextlib
import select
import threading
import time

import nova.conf

CONF = nova.conf.CONF

_local = threading.local()
_enabled = False


def enable():
    """For a process that serves (API worker, compute): bound every wait."""
    global _enabled
    _enabled = True


def disable():
    global _enabled
    _enabled = False


def bound():
    """Seconds the current thread waits for one answer; None: for ever."""
    override = getattr(_local, 'bound', None)
    if override is not None:
        return override
    if not _enabled or not CONF.database.response_timeout:
        return None
    return CONF.database.response_timeout


@contextlib.contextmanager
def allowing(seconds):
    """Raise this thread's bound to ``seconds`` inside the block (a long
    poll that waits in one statement: exempt it here, explicitly)."""
    previous = getattr(_local, 'bound', None)
    _local.bound = max(seconds, bound() or 0)
    try:
        yield
    finally:
        _local.bound = previous


def on_connect_arguments(dialect, cparams):
    """Driver arguments for a new connection (an engine's do_connect)."""
    timeout = bound()
    if timeout is None:
        return
    if dialect.driver == 'pymysql':
        for name in ('connect_timeout', 'read_timeout', 'write_timeout'):
            cparams.setdefault(name, timeout)
    elif dialect.driver == 'psycopg2':
        _install_psycopg2_watchdog()


def on_statement(dbapi_connection):
    """Before each statement on PyMySQL, whose read timeout is otherwise
    fixed when it connects: the current thread's bound, so that one inside
    ``allowing`` gets its own and the next user of the pooled connection
    the usual one. (PyMySQL re-reads this attribute at every read.)"""
    timeout = bound()
    if timeout is not None and hasattr(dbapi_connection, '_read_timeout'):
        dbapi_connection._read_timeout = timeout


_watchdog_installed = False


def _install_psycopg2_watchdog():
    global _watchdog_installed
    if not _watchdog_installed:
        import psycopg2.extensions
        psycopg2.extensions.set_wait_callback(_psycopg2_wait)
        _watchdog_installed = True


def _psycopg2_wait(connection):
    """psycopg2's wait callback: drive the connection until it is done, or
    raise once the server has not answered for the bound."""
    import psycopg2
    import psycopg2.extensions as ext
    timeout = bound()
    deadline = None if timeout is None else time.monotonic() + timeout
    poller = select.poll()
    while True:
        state = connection.poll()
        fd = connection.fileno()    # may change while libpq tries addresses
        if state == ext.POLL_OK:
            return
        if state == ext.POLL_READ:
            poller.register(fd, select.POLLIN)
        elif state == ext.POLL_WRITE:
            poller.register(fd, select.POLLOUT)
        else:
            raise psycopg2.OperationalError('unexpected poll state %r' % state)
        if deadline is None:
            ready = poller.poll()
        else:
            ready = poller.poll(max(0.0, deadline - time.monotonic()) * 1000)
        poller.unregister(fd)
        if not ready:
            # psycopg2 closes the connection when a wait callback raises
            raise psycopg2.OperationalError(
                'the database server did not answer within %g s '
                '([database] response_timeout); connection closed' % timeout)
