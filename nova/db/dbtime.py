"""The database server's current UTC time, with sub-second precision.

Liveness is judged on ONE clock, the database's: heartbeats write it and the
services queries ask the database how long ago that was (seconds_since), so
no process clock ever enters a decision. NOW()/CURRENT_TIMESTAMP are avoided:
MySQL gives session time zone, PostgreSQL the transaction's start, SQLite
whole seconds.
"""
import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql import expression

from nova.db.types import Timestamp


class db_now(expression.FunctionElement):
    type = Timestamp
    inherit_cache = True
    name = 'db_now'


@compiles(db_now)
def _default(element, compiler, **kw):
    raise NotImplementedError('no server clock expression for %s' % compiler.dialect.name)


@compiles(db_now, 'sqlite')
def _sqlite(element, compiler, **kw):
    # %f is SS.SSS; pad to microseconds so stored text sorts and parses
    # like every other timestamp SQLAlchemy writes to SQLite.
    return "(strftime('%Y-%m-%d %H:%M:%f', 'now') || '000')"


@compiles(db_now, 'mysql')
@compiles(db_now, 'mariadb')
def _mysql(element, compiler, **kw):
    return 'UTC_TIMESTAMP(6)'


@compiles(db_now, 'postgresql')
def _postgresql(element, compiler, **kw):
    return "timezone('utc', clock_timestamp())"


class seconds_since(expression.FunctionElement):
    """Seconds (float) from a timestamp expression to db_now(): negative
    when the timestamp lies ahead of the database's clock, NULL when it is
    NULL. Evaluated by the database, row by row, in the statement that reads
    the timestamp."""
    type = sa.Float()
    inherit_cache = True
    name = 'seconds_since'


def _operands(element, compiler, **kw):
    (timestamp,) = element.clauses
    return compiler.process(db_now(), **kw), compiler.process(timestamp, **kw)


@compiles(seconds_since)
def _since_default(element, compiler, **kw):
    raise NotImplementedError('no clock arithmetic for %s' % compiler.dialect.name)


@compiles(seconds_since, 'sqlite')
def _since_sqlite(element, compiler, **kw):
    # julianday() is in days; a double keeps about 50 us of precision today.
    # 'now' is the clock db_now() formats, read without formatting it.
    (timestamp,) = element.clauses
    return "((julianday('now') - julianday(%s)) * 86400.0)" % compiler.process(timestamp, **kw)


@compiles(seconds_since, 'mysql')
@compiles(seconds_since, 'mariadb')
def _since_mysql(element, compiler, **kw):
    # dividing by a float literal keeps the result a DOUBLE, not a DECIMAL
    now, timestamp = _operands(element, compiler, **kw)
    return '(TIMESTAMPDIFF(MICROSECOND, %s, %s) / 1e6)' % (timestamp, now)


@compiles(seconds_since, 'postgresql')
def _since_postgresql(element, compiler, **kw):
    # EXTRACT gives numeric (a Decimal in Python) since PostgreSQL 14
    return 'CAST(EXTRACT(EPOCH FROM (%s - %s)) AS DOUBLE PRECISION)' % _operands(
        element, compiler, **kw)


def db_time():
    """The database's clock, now."""
    from nova.db import engine
    with engine.reader() as conn:
        return conn.scalar(sa.select(db_now()))
