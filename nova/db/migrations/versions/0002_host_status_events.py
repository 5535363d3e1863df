"""Host status events: the watcher's lease, the announced state of each
compute service, and the transitions (kept [host_status_watcher]
retention_days, pruned by the active watcher).

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')
TABLE_OPTIONS = {'mysql_engine': 'InnoDB', 'mysql_charset': 'utf8mb4'}


def upgrade():
    op.create_table(
        'host_status_leases',
        sa.Column('name', sa.String(64), primary_key=True),
        sa.Column('holder', sa.String(255), nullable=True),
        sa.Column('acquired_at', Timestamp, nullable=True),
        sa.Column('renewed_at', Timestamp, nullable=True),
        sa.Column('ttl', sa.Float, nullable=True),
        sa.Column('liveness_unavailable_since', Timestamp, nullable=True),
        **TABLE_OPTIONS,
    )
    op.create_table(
        'host_status_states',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('host', sa.String(255), nullable=False),
        sa.Column('binary', sa.String(255), nullable=False),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('liveness', sa.String(16), nullable=False),
        sa.Column('admin_state', sa.String(16), nullable=False),
        sa.Column('since', Timestamp, nullable=False),
        sa.UniqueConstraint('host', 'binary', name='uniq_host_status_states0host0binary'),
        **TABLE_OPTIONS,
    )
    op.create_table(
        'host_status_events',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('host', sa.String(255), nullable=True),
        sa.Column('binary', sa.String(255), nullable=True),
        sa.Column('old_status', sa.String(16), nullable=True),
        sa.Column('new_status', sa.String(16), nullable=True),
        sa.Column('liveness', sa.String(16), nullable=True),
        sa.Column('admin_state', sa.String(16), nullable=True),
        sa.Column('old_liveness', sa.String(16), nullable=True),
        sa.Column('old_admin_state', sa.String(16), nullable=True),
        sa.Column('reason', sa.String(32), nullable=False),
        sa.Column('at', Timestamp, nullable=False),
        sa.Column('last_seen_up', Timestamp, nullable=True),
        sa.Column('delivered_at', Timestamp, nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_host_status_events0uuid'),
        # never reuse an id once pruned: a cursor past it must not skip new ones
        sqlite_autoincrement=True,
        **TABLE_OPTIONS,
    )
    op.create_index('host_status_events_host_id_idx', 'host_status_events', ['host', 'id'])
    op.create_index('host_status_events_at_idx', 'host_status_events', ['at'])
    op.create_index('host_status_events_delivered_id_idx', 'host_status_events',
                    ['delivered_at', 'id'])
