"""Schema migrations (alembic), applied by ``nova-manage db sync``."""
import os

from alembic import command
from alembic import config as alembic_config
from alembic import migration as alembic_migration

from nova.db import engine

MIGRATIONS_DIR = os.path.join(os.path.dirname(__file__), 'migrations')


def _config(connection):
    cfg = alembic_config.Config()
    cfg.set_main_option('script_location', MIGRATIONS_DIR)
    cfg.attributes['connection'] = connection
    return cfg


def db_sync(revision='head'):
    with engine.get_engine().begin() as conn:
        command.upgrade(_config(conn), revision)


def db_version():
    with engine.get_engine().connect() as conn:
        return alembic_migration.MigrationContext.configure(conn).get_current_revision()
