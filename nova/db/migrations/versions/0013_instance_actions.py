"""Instance actions (os-instance-actions): what each request did to a
server, and the steps of each with their results. (Named for its content:
revision numbers are settled at merge.)

Revision ID: 0013
Revises: 0012
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

# frozen here: a later change to nova.db.types must not rewrite history
Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')


def upgrade():
    op.create_table(
        'instance_actions',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('action', sa.String(255), nullable=False),
        sa.Column('instance_uuid', sa.String(36), nullable=False),
        sa.Column('request_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255), nullable=True),
        sa.Column('project_id', sa.String(255), nullable=True),
        sa.Column('start_time', Timestamp, nullable=False),
        sa.Column('finish_time', Timestamp, nullable=True),
        sa.Column('message', sa.String(255), nullable=True),
        sa.Column('created_at', Timestamp, nullable=False),
        sa.Column('updated_at', Timestamp, nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_index('instance_actions_instance_uuid_id_idx', 'instance_actions',
                    ['instance_uuid', 'id'])
    op.create_index('instance_actions_request_id_idx', 'instance_actions', ['request_id'])
    op.create_table(
        'instance_actions_events',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('action_id', sa.Integer, nullable=False),
        sa.Column('event', sa.String(255), nullable=False),
        sa.Column('start_time', Timestamp, nullable=False),
        sa.Column('finish_time', Timestamp, nullable=True),
        sa.Column('result', sa.String(255), nullable=True),
        sa.Column('traceback', sa.Text, nullable=True),
        sa.Column('host', sa.String(255), nullable=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_index('instance_actions_events_action_id_idx', 'instance_actions_events',
                    ['action_id', 'id'])
