"""Servers at microversions 2.19-2.53: a description, tags, and the copy
of their flavor they keep (2.47 embeds it; it outlives the flavor).

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

# instance column -> the flavors column it copies
FLAVOR_COPY = (('flavor_name', 'name'), ('memory_mb', 'memory_mb'), ('vcpus', 'vcpus'),
               ('root_gb', 'root_gb'), ('ephemeral_gb', 'ephemeral_gb'), ('swap', 'swap'))


def upgrade():
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('display_description', sa.Text, nullable=True))
        batch.add_column(sa.Column('flavor_name', sa.String(255), nullable=True))
        for column, _ in FLAVOR_COPY[1:]:
            batch.add_column(sa.Column(column, sa.Integer, nullable=True))
    instances = sa.table('instances', sa.column('flavor_id'),
                         *[sa.column(c) for c, _ in FLAVOR_COPY])
    flavors = sa.table('flavors', sa.column('flavorid'), *[sa.column(c) for _, c in FLAVOR_COPY])
    op.execute(sa.update(instances).values({
        column: sa.select(flavors.c[source]).where(
            flavors.c.flavorid == instances.c.flavor_id).scalar_subquery()
        for column, source in FLAVOR_COPY}))
    op.create_table(
        'instance_tags',
        sa.Column('resource_id', sa.String(36), primary_key=True),
        sa.Column('tag', sa.String(80), primary_key=True),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    # the tag filters: which servers carry a tag
    op.create_index('instance_tags_tag_idx', 'instance_tags', ['tag'])
