"""Flavor extra specs: key/value rows of a flavor, named by the flavor's
primary key (flavors.id)."""
import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova.db import engine
from nova.db import nul
from nova.db.models import flavor_extra_specs as specs


def by_flavor(conn, flavor_pks):
    """{flavor pk: {key: value}} for ``flavor_pks`` (every one present,
    {} when it has none), keys in order; one statement."""
    found = {pk: {} for pk in flavor_pks}
    if not found:
        return found
    for flavor_pk, key, value in conn.execute(
            sa.select(specs.c.flavor_id, specs.c.key, specs.c.value)
            .where(specs.c.flavor_id.in_(sorted(found)))
            .order_by(specs.c.flavor_id, specs.c.key)):
        found[flavor_pk][key] = value
    return found


def of_flavor(flavor_pk):
    with engine.reader() as conn:
        return by_flavor(conn, [flavor_pk])[flavor_pk]


def update(flavor_pk, values):
    """Set each key of ``values`` (text) on the flavor, in one transaction;
    a racing writer of the same new key makes it run once more."""
    for attempt in (1, 2):
        try:
            with engine.writer() as conn:
                for key, value in values.items():
                    changed = conn.execute(sa.update(specs).where(
                        specs.c.flavor_id == flavor_pk, specs.c.key == key)
                        .values(value=value)).rowcount
                    if not changed:
                        conn.execute(sa.insert(specs).values(
                            flavor_id=flavor_pk, key=key, value=value))
            return
        except db_exc.DBDuplicateEntry:
            if attempt == 2:
                raise


def delete(flavor_pk, key):
    """True when the flavor had the key."""
    if nul.in_any(key):
        return False
    with engine.writer() as conn:
        return conn.execute(sa.delete(specs).where(
            specs.c.flavor_id == flavor_pk, specs.c.key == key)).rowcount == 1


def delete_all(conn, flavor_pk):
    """Every key of a flavor being deleted, in its transaction (SQLite
    does not enforce the foreign key's cascade)."""
    conn.execute(sa.delete(specs).where(specs.c.flavor_id == flavor_pk))
