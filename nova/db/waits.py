"""How long a process waits for the database server before giving up.

A server that refuses connections fails fast by itself; one that hangs (a
network black hole, a proxy or server that stops forwarding or answering)
would hold an API worker until gunicorn killed it and a compute's
heartbeat for ever. Each wait on the server is bounded by [database]
response_timeout, per driver:

- PyMySQL has connect, read and write timeouts: set on every connection.
- psycopg2 (libpq) has a connect timeout but none for reads: a watchdog
  of ours gives up on a round trip past the bound (pg_watchdog.py says
  why nothing of libpq's or the server's can).

Only the serving processes bound their waits (``enable()``: nova-api's
workers, nova-compute); nova-manage, whose migrations may rightly be long,
and tools that bulk-load data do not. A wait that is long on purpose (a
long poll blocking in one statement) takes ``allowing(seconds)`` around
it; a long poll made of short statements needs nothing, the bound being
per wait, not per request.
"""
import contextlib
import threading

import nova.conf

CONF = nova.conf.CONF


class _Local(threading.local):
    bound = None       # a miss would raise and catch AttributeError per statement


_local = _Local()
_bound = None      # seconds, once enable() has read [database] response_timeout


def enable():
    """For a process that serves (API worker, compute), once its options
    are parsed: bound every wait by [database] response_timeout."""
    global _bound
    _bound = CONF.database.response_timeout or None


def disable():
    global _bound
    _bound = None


def bound():
    """Seconds the current thread waits for one answer; None: for ever.
    (On every statement: read once in enable(), oslo.config lookups are
    slow.)"""
    override = _local.bound
    return _bound if override is None else override


@contextlib.contextmanager
def allowing(seconds):
    """Raise this thread's bound to ``seconds`` inside the block (a long
    poll that waits in one statement: exempt it here, explicitly). Where
    waits are not bounded at all they stay so."""
    previous = _local.bound
    current = bound()
    if current is not None:
        _local.bound = max(seconds, current)
    try:
        yield
    finally:
        _local.bound = previous


def pymysql_arguments(cparams, timeout):
    """PyMySQL's arguments for a new connection bounded by ``timeout``."""
    for name in ('connect_timeout', 'read_timeout', 'write_timeout'):
        cparams.setdefault(name, timeout)


def on_statement(dbapi_connection):
    """Before each statement on PyMySQL, whose read timeout is otherwise
    fixed when it connects: the current thread's bound, so that one inside
    ``allowing`` gets its own and the next user of the pooled connection
    the usual one. (PyMySQL re-reads this attribute at every read.)"""
    timeout = bound()
    if timeout is not None and hasattr(dbapi_connection, '_read_timeout'):
        dbapi_connection._read_timeout = timeout
