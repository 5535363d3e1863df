"""The host-status change an evacuation makes for one server: events that
concern one server (``instance_uuid``), and on each migration the event
that announced its move (``host_status_event_id``). Moves finished before this revision count as
announced before every event (0): nobody is told of them late.

Revision ID: 0007
Revises: 0006
"""
from alembic import op
import sqlalchemy as sa

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('host_status_events') as batch:
        batch.add_column(sa.Column('instance_uuid', sa.String(36), nullable=True))
    op.create_index('host_status_events_instance_id_idx', 'host_status_events',
                    ['instance_uuid', 'id'])
    with op.batch_alter_table('migrations') as batch:
        batch.add_column(sa.Column('host_status_event_id', sa.Integer, nullable=True))
    op.create_index('migrations_host_status_event_idx', 'migrations',
                    ['host_status_event_id', 'status'])
    migrations = sa.table('migrations', sa.column('status', sa.String),
                          sa.column('host_status_event_id', sa.Integer))
    op.execute(migrations.update()
               .where(migrations.c.status.in_(('done', 'completed')))
               .values(host_status_event_id=0))
