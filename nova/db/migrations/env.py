from alembic import context

from nova.db import models


def run_migrations_online():
    connection = context.config.attributes['connection']
    context.configure(connection=connection, target_metadata=models.Base.metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit('offline migrations are not supported; use nova-manage db sync')
run_migrations_online()
