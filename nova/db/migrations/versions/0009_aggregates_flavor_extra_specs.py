"""Host aggregates (their hosts and metadata) and flavor extra specs, and
the copy of its flavor's extra specs a server keeps. (Named for its
content: revision numbers are settled when branches meet.)

Revision ID: 0009
Revises: 0008
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

# frozen here: a later change to nova.db.types must not rewrite history
Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')
TABLE_OPTIONS = {'mysql_engine': 'InnoDB', 'mysql_charset': 'utf8mb4'}


def _key_values(table, parent, parent_column):
    """A table of (parent id, key, value) rows, one key per parent."""
    op.create_table(
        table,
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(parent_column, sa.Integer,
                  sa.ForeignKey('%s.id' % parent, ondelete='CASCADE'), nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255), nullable=False),
        sa.UniqueConstraint(parent_column, 'key',
                            name='uniq_%s0%s0key' % (table, parent_column)),
        **TABLE_OPTIONS,
    )


def upgrade():
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('flavor_extra_specs', sa.Text, nullable=True))
    _key_values('flavor_extra_specs', 'flavors', 'flavor_id')
    op.create_table(
        'aggregates',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('created_at', Timestamp, nullable=False),
        sa.Column('updated_at', Timestamp, nullable=True),
        sa.UniqueConstraint('name', name='uniq_aggregates0name'),
        sa.UniqueConstraint('uuid', name='uniq_aggregates0uuid'),
        **TABLE_OPTIONS,
    )
    op.create_table(
        'aggregate_hosts',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('aggregate_id', sa.Integer,
                  sa.ForeignKey('aggregates.id', ondelete='CASCADE'), nullable=False),
        sa.Column('host', sa.String(255), nullable=False),
        sa.UniqueConstraint('aggregate_id', 'host',
                            name='uniq_aggregate_hosts0aggregate_id0host'),
        **TABLE_OPTIONS,
    )
    op.create_index('aggregate_hosts_host_idx', 'aggregate_hosts', ['host'])
    _key_values('aggregate_metadata', 'aggregates', 'aggregate_id')
    op.create_index('aggregate_metadata_key_value_idx', 'aggregate_metadata',
                    ['key', 'value'])
