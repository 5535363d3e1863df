"""Microversions 2.55, 2.63 and 2.73: a flavor's description, the trusted
image certificate ids a server was created with (a JSON list), and the
reason a server was locked for (kept while it is locked, cleared by unlock).

Revision ID: 0011
Revises: 0010
"""
from alembic import op
import sqlalchemy as sa

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('flavors') as batch:
        batch.add_column(sa.Column('description', sa.Text, nullable=True))
    with op.batch_alter_table('instances') as batch:
        batch.add_column(sa.Column('locked_reason', sa.String(255), nullable=True))
        batch.add_column(sa.Column('trusted_certs', sa.Text, nullable=True))
