"""What the host-status watcher, as Masakari's host monitor, did about each
transition: when it was settled and how (the notification sent, refused
by Masakari, or not needed).

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')


def upgrade():
    with op.batch_alter_table('host_status_events') as batch:
        batch.add_column(sa.Column('host_monitor_at', Timestamp, nullable=True))
        batch.add_column(sa.Column('host_monitor_result', sa.String(16), nullable=True))
