"""At most one open evacuation per server: ``open_instance_uuid`` carries
the server's uuid while its migration is accepted or pre-migrating, under a
unique constraint. Open evacuations from before this revision keep theirs
(newest first: an older open one of the same server is ended ``failed``,
as a superseded evacuation is now).

Revision ID: 0008
Revises: 0007
"""
from alembic import op
import sqlalchemy as sa

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None

OPEN = ('accepted', 'pre-migrating')


def upgrade():
    with op.batch_alter_table('migrations') as batch:
        batch.add_column(sa.Column('open_instance_uuid', sa.String(36), nullable=True))
    migrations = sa.table('migrations', sa.column('id', sa.Integer),
                          sa.column('instance_uuid', sa.String),
                          sa.column('status', sa.String),
                          sa.column('open_instance_uuid', sa.String))
    conn = op.get_bind()
    rows = conn.execute(sa.select(migrations.c.id, migrations.c.instance_uuid)
                        .where(migrations.c.status.in_(OPEN))
                        .order_by(migrations.c.id.desc())).all()
    kept = set()
    for migration_id, instance_uuid in rows:
        values = ({'status': 'failed'} if instance_uuid in kept
                  else {'open_instance_uuid': instance_uuid})
        kept.add(instance_uuid)
        conn.execute(migrations.update().where(migrations.c.id == migration_id).values(**values))
    with op.batch_alter_table('migrations') as batch:
        batch.create_unique_constraint('uniq_migrations0open_instance_uuid',
                                       ['open_instance_uuid'])
