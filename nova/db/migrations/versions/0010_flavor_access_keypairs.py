"""Flavor access and keypairs: the projects granted each private flavor
(removed with their flavor), and users' public keys, unique by name per
user. (Named for its content: revision numbers are settled at merge.)

Revision ID: 0010
Revises: 0009
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

# frozen here: a later change to nova.db.types must not rewrite history
Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')


def upgrade():
    op.create_table(
        'flavor_projects',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('flavor_id', sa.Integer, sa.ForeignKey('flavors.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.UniqueConstraint('flavor_id', 'project_id',
                            name='uniq_flavor_projects0flavor_id0project_id'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_index('flavor_projects_project_id_idx', 'flavor_projects', ['project_id'])
    op.create_table(
        'key_pairs',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.String(255), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('fingerprint', sa.String(255), nullable=False),
        sa.Column('public_key', sa.Text, nullable=False),
        sa.Column('type', sa.String(8), nullable=False, server_default='ssh'),
        sa.Column('created_at', Timestamp, nullable=False),
        sa.UniqueConstraint('user_id', 'name', name='uniq_key_pairs0user_id0name'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
