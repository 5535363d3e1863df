from oslo_config import cfg
from oslo_db import options as db_options

DEFAULT_CONNECTION = 'sqlite:///nova.sqlite'

response_timeout = cfg.FloatOpt(
    'response_timeout', default=5.0, min=0,
    help='Seconds nova-api and nova-compute wait for the database server to '
         'answer one step (opening a connection, sending a statement, reading '
         'its result) before they give the connection up as hung and treat '
         'the database as unavailable: the API answers 503 '
         'serviceUnavailable, a failed heartbeat is retried at the next '
         'report_interval, and both recover by themselves when the server '
         'answers again. A read request gives up within 3 x this value (it '
         'is tried once more on a fresh connection), a write or a heartbeat '
         'within 2 x: 15 s and 10 s by default. Keep 3 x below the API '
         'worker timeout (60 s) and above your slowest legitimate statement. '
         '0 waits for ever. nova-manage always waits (migrations may be '
         'long). MariaDB/MySQL: PyMySQL\'s connect, read and write timeouts. '
         'PostgreSQL: libpq\'s connect_timeout (whole seconds, at least 2) '
         'and a client-side watchdog on every round trip (libpq has no read '
         'timeout, and neither statement_timeout nor TCP keepalives fire '
         'behind a peer that accepts and stops answering). '
         'SQLite: the busy timeout, how long a writer waits for the write '
         'lock another process holds (one frozen mid-write) before the API '
         'answers 503 and a compute retries; 10 s where waits are not '
         'bounded.')


def register_opts(conf):
    db_options.set_defaults(conf, connection=DEFAULT_CONNECTION)
    conf.register_opt(response_timeout, group='database')


def list_opts():
    return {'database': db_options.database_opts + [response_timeout]}
