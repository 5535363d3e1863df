"""A server's times as the API shows them, formatted by the database in the
statement that reads them: a page of servers builds no Python datetime only
to format it back (benchmarks/README.rst, "The page itself").

``iso_seconds(ts)``: '2026-12-03T07:37:38Z' (a server's created and
updated, its fault's created). ``iso_micro(ts)``: '2026-12-03T07:37:38.123456'
(launched_at, terminated_at). NULL stays NULL.
"""
import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql import expression


class iso_seconds(expression.FunctionElement):
    type = sa.String()
    inherit_cache = True
    name = 'iso_seconds'


class iso_micro(expression.FunctionElement):
    type = sa.String()
    inherit_cache = True
    name = 'iso_micro'


def _timestamp(element, compiler, **kw):
    (timestamp,) = element.clauses
    return compiler.process(timestamp, **kw)


def _text(compiler, value, **kw):
    # a literal, not a bind parameter; the compiler doubles '%' where the
    # driver's paramstyle needs it
    return compiler.process(sa.literal_column("'%s'" % value), **kw)


@compiles(iso_seconds)
@compiles(iso_micro)
def _default(element, compiler, **kw):
    raise NotImplementedError('no timestamp formatting for %s' % compiler.dialect.name)


# SQLite keeps a timestamp as 26 characters of text, 'YYYY-MM-DD
# HH:MM:SS.ffffff' (SQLAlchemy and db_now both write it so): reshaped, not
# parsed.
@compiles(iso_seconds, 'sqlite')
def _seconds_sqlite(element, compiler, **kw):
    ts = _timestamp(element, compiler, **kw)
    return "(substr(%s, 1, 10) || 'T' || substr(%s, 12, 8) || 'Z')" % (ts, ts)


@compiles(iso_micro, 'sqlite')
def _micro_sqlite(element, compiler, **kw):
    ts = _timestamp(element, compiler, **kw)
    return "(substr(%s, 1, 10) || 'T' || substr(%s, 12, 15))" % (ts, ts)


@compiles(iso_seconds, 'mysql')
@compiles(iso_seconds, 'mariadb')
def _seconds_mysql(element, compiler, **kw):
    return 'DATE_FORMAT(%s, %s)' % (_timestamp(element, compiler, **kw),
                                    _text(compiler, '%Y-%m-%dT%H:%i:%sZ', **kw))


@compiles(iso_micro, 'mysql')
@compiles(iso_micro, 'mariadb')
def _micro_mysql(element, compiler, **kw):
    return 'DATE_FORMAT(%s, %s)' % (_timestamp(element, compiler, **kw),
                                    _text(compiler, '%Y-%m-%dT%H:%i:%s.%f', **kw))


@compiles(iso_seconds, 'postgresql')
def _seconds_postgresql(element, compiler, **kw):
    return 'to_char(%s, %s)' % (_timestamp(element, compiler, **kw),
                                _text(compiler, 'YYYY-MM-DD"T"HH24:MI:SS"Z"', **kw))


@compiles(iso_micro, 'postgresql')
def _micro_postgresql(element, compiler, **kw):
    return 'to_char(%s, %s)' % (_timestamp(element, compiler, **kw),
                                _text(compiler, 'YYYY-MM-DD"T"HH24:MI:SS.US', **kw))
