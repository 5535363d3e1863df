"""Planned maintenance windows of compute hosts, and the per-host rows
their writers lock.

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')
TABLE_OPTIONS = {'mysql_engine': 'InnoDB', 'mysql_charset': 'utf8mb4'}


def upgrade():
    op.create_table(
        'host_maintenance_windows',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('host', sa.String(255), nullable=False),
        sa.Column('start_at', Timestamp, nullable=False),
        sa.Column('end_at', Timestamp, nullable=False),
        sa.Column('reason', sa.String(255), nullable=False, server_default=''),
        sa.Column('impact', sa.String(16), nullable=False),
        sa.Column('state', sa.String(16), nullable=False),
        sa.Column('disabled_service', sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column('created_at', Timestamp, nullable=False),
        sa.Column('updated_at', Timestamp, nullable=False),
        sa.UniqueConstraint('uuid', name='uniq_host_maintenance_windows0uuid'),
        **TABLE_OPTIONS,
    )
    op.create_index('host_maintenance_windows_host_state_idx', 'host_maintenance_windows',
                    ['host', 'state', 'start_at'])
    op.create_index('host_maintenance_windows_state_start_idx', 'host_maintenance_windows',
                    ['state', 'start_at'])
    op.create_table(
        'host_maintenance_locks',
        sa.Column('host', sa.String(255), primary_key=True),
        sa.Column('writes', sa.Integer, nullable=False, server_default='0'),
        **TABLE_OPTIONS,
    )
