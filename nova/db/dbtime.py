"""The database server's current UTC time, with sub-second precision.

Liveness is judged on ONE clock, the database's: heartbeats write it and the
services query reads it beside the rows. NOW()/CURRENT_TIMESTAMP are avoided:
MySQL gives session time zone, PostgreSQL the transaction's start, SQLite
whole seconds.
"""
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
