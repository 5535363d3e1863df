"""Server groups (os-server-groups): a group's policy and rules, and which
group each server belongs to (removed with its group). (Named for its
content: revision numbers are settled at merge.)

Revision ID: 0012
Revises: 0011
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

# frozen here: a later change to nova.db.types must not rewrite history
Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')


def upgrade():
    op.create_table(
        'instance_groups',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255), nullable=False),
        sa.Column('policy', sa.String(255), nullable=False),
        sa.Column('rules', sa.Text, nullable=True),
        sa.Column('created_at', Timestamp, nullable=False),
        sa.Column('updated_at', Timestamp, nullable=True),
        sa.UniqueConstraint('uuid', name='uniq_instance_groups0uuid'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_index('instance_groups_project_id_idx', 'instance_groups', ['project_id'])
    op.create_table(
        'instance_group_members',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('group_id', sa.Integer,
                  sa.ForeignKey('instance_groups.id', ondelete='CASCADE'), nullable=False),
        sa.Column('instance_uuid', sa.String(36), nullable=False),
        sa.UniqueConstraint('instance_uuid',
                            name='uniq_instance_group_members0instance_uuid'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_index('instance_group_members_group_id_idx', 'instance_group_members',
                    ['group_id'])
