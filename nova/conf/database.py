from oslo_db import options as db_options

DEFAULT_CONNECTION = 'sqlite:///nova.sqlite'


def register_opts(conf):
    db_options.set_defaults(conf, connection=DEFAULT_CONNECTION)


def list_opts():
    return {'database': db_options.database_opts}
