"""The one oslo.db transaction factory of the process, and its SQLite tuning."""
import contextlib
import logging
import threading

import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import enginefacade

import nova.conf
from nova.db import waits

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)
SQLITE_BUSY_TIMEOUT = 10.0     # seconds, where waits are not bounded (waits.py)
# what SQLite says when a lock another connection holds was not granted
SQLITE_LOCK_ERRORS = ('database is locked', 'database table is locked')

_lock = threading.Lock()
_factory = None
# oslo.db's thread_checkin: time.sleep(0) whenever a connection goes back to
# the pool. Where several threads write (nova-compute's heartbeat and work
# loop) it gives a writer waiting on SQLite's lock its turn. An API worker's
# writes are single short statements, so there it mostly hands the CPU away
# mid-request: serve_requests() turns it off.
_yield_at_checkin = True


@enginefacade.transaction_context_provider
class DBContext:
    """A fresh transaction scope: every DB API call owns one, briefly."""


def _tune_sqlite(dbapi_connection, connection_record):
    # A writer waits for the lock instead of failing, as long as any other
    # wait on the database (waits.bound(): a process frozen mid-write must
    # not stop the others for longer); WAL (persistent in the file, so a
    # no-op after the first connection) lets readers go on while a compute
    # writes its heartbeat.
    bound = waits.bound()
    busy_timeout = SQLITE_BUSY_TIMEOUT if bound is None else bound
    dbapi_connection.execute('PRAGMA busy_timeout = %d' % (busy_timeout * 1000))
    if dbapi_connection.execute('PRAGMA journal_mode').fetchone()[0] != 'wal':
        dbapi_connection.execute('PRAGMA journal_mode = WAL')


def _connect_failure_is_disconnect(context):
    # A server that refuses us while we connect (down, restarting, too many
    # clients) is unavailable, not a bug. oslo.db only knows libpq's old
    # wording ("could not connect to server"), so on PostgreSQL this came
    # out as a bare OperationalError: a 500 from the API and a dead
    # nova-compute loop. Flagged here, oslo.db raises DBConnectionError for
    # every dialect (and retries it at engine start, as for MySQL).
    if (context.connection is None
            and isinstance(context.sqlalchemy_exception, sa.exc.OperationalError)):
        context.is_disconnect = True


def _lock_not_granted_is_deadlock(context):
    # SQLite gives up on a lock another connection holds (past the busy
    # timeout, or at once where waiting cannot help) with a bare
    # OperationalError, which oslo.db passes on as it is: an API 500 and a
    # nova-compute that exits at start. Its transaction is rolled back and a
    # retry in a moment may pass, which is what oslo.db's DBDeadlock says
    # (a DBError: the computes' loops retry it, the API answers 503).
    error = context.sqlalchemy_exception
    if (context.dialect is not None and context.dialect.name == 'sqlite'
            and isinstance(error, sa.exc.OperationalError)
            and str(error.orig) in SQLITE_LOCK_ERRORS):
        raise db_exc.DBDeadlock(error)


# On the class, so it also covers oslo.db's first connection, made inside
# create_engine before an engine listener could be added; and so they run
# before oslo.db's own, which re-raises an unknown OperationalError as is.
sa.event.listen(sa.engine.Engine, 'handle_error', _connect_failure_is_disconnect)
sa.event.listen(sa.engine.Engine, 'handle_error', _lock_not_granted_is_deadlock)


def _bound_waits(dialect, connection_record, cargs, cparams):
    # per driver, as nova/db/waits.py explains
    timeout = waits.bound()
    if timeout is None:
        return
    if dialect.driver == 'pymysql':
        waits.pymysql_arguments(cparams, timeout)
    elif dialect.driver == 'psycopg2':
        from nova.db import pg_watchdog   # imports psycopg2: only where it is used
        pg_watchdog.connect_arguments(cparams, timeout)


def _bound_statement(conn, cursor, statement, parameters, context, executemany):
    waits.on_statement(conn.connection.dbapi_connection)


# On the class too, for the same reason: every connection, the first included.
sa.event.listen(sa.engine.Engine, 'do_connect', _bound_waits)


def _pool_sqlite_file(engine):
    """Keep SQLite file connections in a pool instead of oslo.db's NullPool.

    With NullPool every transaction opens the file, registers functions,
    runs the PRAGMAs above and re-reads the schema before its first query;
    and when the last connection to a WAL database closes, SQLite
    checkpoints and removes the WAL, which the next request recreates. A
    pooled connection keeps none of the data: each transaction still reads
    the database as it is when the transaction starts. The new pool takes
    over the old one's listeners (oslo.db's BEGIN handling, REGEXP).
    """
    old = engine.pool
    if not isinstance(old, sa.pool.NullPool):
        return
    db = CONF.database
    try:
        # These are SQLAlchemy's own pool internals: should a release rename
        # them, stay on the (slower, equally correct) NullPool.
        pool = sa.pool.QueuePool(
            old._creator, pool_size=db.max_pool_size or 5,
            max_overflow=db.max_overflow if db.max_overflow is not None else 10,
            timeout=db.pool_timeout or 30, recycle=old._recycle,
            reset_on_return=old._reset_on_return, dialect=old._dialect,
            pre_ping=False,    # nothing to ping: a local file does not hang up
            _dispatch=old.dispatch)
    except (AttributeError, TypeError) as exc:
        LOG.warning('SQLite connections stay unpooled: %s', exc)
        return
    engine.pool = pool
    old.dispose()


def get_factory():
    global _factory
    if _factory is None:
        with _lock:
            if _factory is None:
                factory = enginefacade.transaction_context()
                factory.configure(**_database_settings())
                engine = factory.writer.get_engine()
                if engine.dialect.name == 'sqlite':
                    _pool_sqlite_file(engine)
                    sa.event.listen(engine, 'connect', _tune_sqlite)
                elif engine.dialect.driver == 'pymysql':
                    sa.event.listen(engine, 'before_cursor_execute', _bound_statement)
                _factory = factory
    return _factory


def _database_settings():
    db = CONF.database
    return {
        'connection': db.connection,
        'sqlite_synchronous': db.sqlite_synchronous,
        'max_pool_size': db.max_pool_size,
        'max_overflow': db.max_overflow,
        'pool_timeout': db.pool_timeout,
        'connection_recycle_time': db.connection_recycle_time,
        'max_retries': db.max_retries,
        'retry_interval': db.retry_interval,
        'thread_checkin': _yield_at_checkin,
    }


def serve_requests():
    """For processes that answer requests: do not wait for the database when
    the engine starts (oslo.db retries max_retries x retry_interval, 100 s
    by default, longer than gunicorn lets a worker take). The request that
    finds the database away answers 503 at once, the next one connects
    afresh. An explicit [database] max_retries still wins.

    Nor yield at each connection check-in (see _yield_at_checkin)."""
    global _yield_at_checkin
    CONF.set_default('max_retries', 0, group='database')
    _yield_at_checkin = False


def get_engine():
    return get_factory().writer.get_engine()


def reader():
    """A read-only transaction: ``with reader() as conn:``."""
    return get_factory().reader.connection.using(DBContext())


def writer():
    """A short write transaction: ``with writer() as conn:``."""
    return get_factory().writer.connection.using(DBContext())


@contextlib.contextmanager
def writing(conn=None):
    """``conn``, the caller's transaction, when given (the write commits
    or rolls back with the rest of it); else a write transaction of its
    own."""
    if conn is not None:
        yield conn
        return
    with writer() as own:
        yield own


def reset():
    """Forget the engine (tests, and after CONF.database changes)."""
    global _factory
    with _lock:
        if _factory is not None:
            try:
                _factory.writer.get_engine().dispose()
            except Exception:
                pass
        _factory = None
