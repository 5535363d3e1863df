"""The migrations on SQLite, MariaDB/MySQL and PostgreSQL: they reach head
on an empty database, re-running them is harmless, the schema they build is
exactly the models' (alembic autogenerate finds nothing to do), and every
timestamp column keeps microseconds."""
import datetime
import re

import sqlalchemy as sa
from alembic import script as alembic_script
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from nova.db import engine
from nova.db import migration
from nova.db import models
from nova.tests.functional.db import backends


def _head():
    return alembic_script.ScriptDirectory(migration.MIGRATIONS_DIR).get_current_head()


def _normalized_default(text):
    """'0', "'0'", "('')", "'x'::character varying", 'false' -> comparable."""
    if text is None:
        return None
    text = re.sub(r'::[\w ]+$', '', str(text).strip())
    while text.startswith('(') and text.endswith(')'):
        text = text[1:-1]
    text = text.strip("'\"").lower()
    return {'false': '0', 'true': '1'}.get(text, text)


def _server_defaults_differ(context, inspected_column, metadata_column,
                            inspected_default, metadata_default, rendered_metadata_default):
    return (_normalized_default(inspected_default)
            != _normalized_default(rendered_metadata_default))


class _MigrationTests:
    FRESH_DATABASE = True

    def test_upgrade_from_empty_reaches_head(self):
        self.assertIsNone(migration.db_version())
        migration.db_sync()
        self.assertEqual(_head(), migration.db_version())
        tables = set(sa.inspect(engine.get_engine()).get_table_names())
        self.assertEqual(set(models.Base.metadata.tables) | {'alembic_version'}, tables)
        with engine.reader() as conn:
            flavors = conn.execute(sa.select(models.flavors.c.name)
                                   .order_by(models.flavors.c.id)).scalars().all()
        self.assertEqual(['m1.tiny', 'm1.small', 'm1.medium', 'm1.large', 'm1.xlarge'],
                         flavors)

    def test_sync_again_changes_nothing(self):
        migration.db_sync()
        migration.db_sync()
        self.assertEqual(_head(), migration.db_version())
        with engine.reader() as conn:
            self.assertEqual(5, conn.scalar(sa.select(sa.func.count())
                                            .select_from(models.flavors)))

    def test_models_match_migrations(self):
        migration.db_sync()
        with engine.get_engine().connect() as conn:
            context = MigrationContext.configure(conn, opts={
                'compare_type': True,
                'compare_server_default': _server_defaults_differ})
            diff = compare_metadata(context, models.Base.metadata)
        self.assertEqual([], diff, 'models and migrations disagree on %s'
                         % self.BACKEND)

    def test_timestamps_keep_microseconds(self):
        migration.db_sync()
        value = datetime.datetime(2030, 1, 2, 3, 4, 5, 123456)
        with engine.writer() as conn:
            conn.execute(sa.insert(models.services).values(
                uuid='u', host='h', binary='b', report_count=0, disabled=False,
                forced_down=False, deleted=0, created_at=value, updated_at=value,
                deleted_at=value, last_seen_up=value))
        with engine.reader() as conn:
            row = conn.execute(sa.select(models.services)).mappings().one()
        for column in ('created_at', 'updated_at', 'deleted_at', 'last_seen_up'):
            self.assertEqual(value, row[column], column)


class MigrationsSQLiteTest(_MigrationTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class MigrationsMySQLTest(_MigrationTests, backends.BackendTestCase):
    BACKEND = 'mysql'

    def test_timestamp_columns_are_datetime_6(self):
        migration.db_sync()
        with engine.reader() as conn:
            rows = conn.execute(sa.text(
                "SELECT table_name, column_name, column_type FROM information_schema.columns "
                "WHERE table_schema = DATABASE() AND data_type IN ('datetime', 'timestamp')"
            )).all()
        expected = _timestamp_columns()
        self.assertEqual(expected, {(t, c) for t, c, _ in rows})
        self.assertEqual({'datetime(6)'}, {column_type for _, _, column_type in rows})


class MigrationsPostgreSQLTest(_MigrationTests, backends.BackendTestCase):
    BACKEND = 'postgresql'

    def test_timestamp_columns_are_microsecond_timestamps_without_zone(self):
        migration.db_sync()
        with engine.reader() as conn:
            rows = conn.execute(sa.text(
                "SELECT table_name, column_name, data_type, datetime_precision "
                "FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND data_type LIKE 'timestamp%'")).all()
        self.assertEqual(_timestamp_columns(), {(r[0], r[1]) for r in rows})
        self.assertEqual({('timestamp without time zone', 6)}, {(r[2], r[3]) for r in rows})


def _timestamp_columns():
    return {(table.name, column.name)
            for table in models.Base.metadata.tables.values()
            for column in table.columns if isinstance(column.type, sa.DateTime)}
