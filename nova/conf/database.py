from oslo_config import cfg
from oslo_db import options as db_options

DEFAULT_CONNECTION = 'sqlite:///nova.sqlite'

response_timeout = cfg.FloatOpt(
    'response_timeout', default=10.0, min=0,
    help='Seconds nova-api and nova-compute wait for the database server to '
         'answer one step (opening a connection, sending a statement, reading '
         'its result) before they give the connection up as hung and treat '
         'the database as unavailable: the API answers 503 '
         'serviceUnavailable, a heartbeat is retried at the next '
         'report_interval. A request gives up within 3 x this value (a read '
         'is tried once more on a fresh connection), a write or a heartbeat '
         'within 2 x; keep 3 x below the API worker timeout (60 s). It must '
         'exceed your slowest legitimate statement. 0 waits forever. '
         'nova-manage never gives up (schema migrations may be long). '
         'MySQL/MariaDB (PyMySQL): its connect, read and write timeouts. '
         'PostgreSQL (psycopg2): a client-side watchdog on every wait, since '
         'libpq has no read timeout. SQLite: not applicable (a local file).')


def register_opts(conf):
    db_options.set_defaults(conf, connection=DEFAULT_CONNECTION)
    conf.register_opt(response_timeout, group='database')


def list_opts():
    return {'database': db_options.database_opts + [response_timeout]}
