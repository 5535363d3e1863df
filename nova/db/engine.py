"""The one oslo.db transaction factory of the process, and its SQLite tuning."""
import threading

import sqlalchemy as sa
from oslo_db.sqlalchemy import enginefacade

import nova.conf

CONF = nova.conf.CONF
SQLITE_BUSY_TIMEOUT_MS = 10000

_lock = threading.Lock()
_factory = None


@enginefacade.transaction_context_provider
class DBContext:
    """A fresh transaction scope: every DB API call owns one, briefly."""


def _tune_sqlite(dbapi_connection, connection_record):
    # A writer waits for the lock instead of failing; WAL (persistent in the
    # file, so a no-op after the first connection) lets readers go on while
    # a compute writes its heartbeat.
    dbapi_connection.execute('PRAGMA busy_timeout = %d' % SQLITE_BUSY_TIMEOUT_MS)
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


# On the class, so it also covers oslo.db's first connection, made inside
# create_engine before an engine listener could be added.
sa.event.listen(sa.engine.Engine, 'handle_error', _connect_failure_is_disconnect)


def get_factory():
    global _factory
    if _factory is None:
        with _lock:
            if _factory is None:
                factory = enginefacade.transaction_context()
                factory.configure(**_database_settings())
                engine = factory.writer.get_engine()
                if engine.dialect.name == 'sqlite':
                    sa.event.listen(engine, 'connect', _tune_sqlite)
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
    }


def get_engine():
    return get_factory().writer.get_engine()


def reader():
    """A read-only transaction: ``with reader() as conn:``."""
    return get_factory().reader.connection.using(DBContext())


def writer():
    """A short write transaction: ``with writer() as conn:``."""
    return get_factory().writer.connection.using(DBContext())


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
