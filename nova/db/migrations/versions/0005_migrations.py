"""Server actions: who locked a server (owner or admin), and the
migrations table that records each evacuation (the destination's work,
the source's tombstone).

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')
TABLE_OPTIONS = {'mysql_engine': 'InnoDB', 'mysql_charset': 'utf8mb4'}


def upgrade():
    op.add_column('instances', sa.Column('locked_by', sa.String(16), nullable=True))
    op.create_table(
        'migrations',
        sa.Column('created_at', Timestamp, nullable=True),
        sa.Column('updated_at', Timestamp, nullable=True),
        sa.Column('deleted_at', Timestamp, nullable=True),
        sa.Column('deleted', sa.Integer, nullable=False, server_default='0'),
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('instance_uuid', sa.String(36), nullable=False),
        sa.Column('migration_type', sa.String(16), nullable=False),
        sa.Column('source_compute', sa.String(255), nullable=True),
        sa.Column('source_node', sa.String(255), nullable=True),
        sa.Column('dest_compute', sa.String(255), nullable=True),
        sa.Column('dest_node', sa.String(255), nullable=True),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('old_vm_state', sa.String(16), nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_migrations0uuid'),
        **TABLE_OPTIONS,
    )
    op.create_index('migrations_source_status_idx', 'migrations',
                    ['source_compute', 'status'])
    op.create_index('migrations_dest_status_idx', 'migrations', ['dest_compute', 'status'])
    op.create_index('migrations_instance_uuid_idx', 'migrations', ['instance_uuid'])
