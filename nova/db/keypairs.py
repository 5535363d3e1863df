"""Users' keypairs (os-keypairs): public keys only, unique by name per user,
listed by name."""
import sqlalchemy as sa
from oslo_db import exception as db_exc

from nova import exception
from nova.db import engine
from nova.db import nul
from nova.db.dbtime import db_now
from nova.db.models import key_pairs


def create(user_id, name, key_type, public_key, fingerprint):
    """Store a public key and return its row; KeyPairExists when the user
    has a keypair of that name."""
    try:
        with engine.writer() as conn:
            conn.execute(sa.insert(key_pairs).values(
                user_id=user_id, name=name, type=key_type, public_key=public_key,
                fingerprint=fingerprint, created_at=db_now()))
    except db_exc.DBDuplicateEntry:
        raise exception.KeyPairExists(key_name=name)
    return get(user_id, name)


def get(user_id, name):
    """The user's keypair ``name``; KeypairNotFound when there is none."""
    if nul.in_any(user_id, name):
        raise exception.KeypairNotFound(user_id=user_id, name=name)
    with engine.reader() as conn:
        row = conn.execute(sa.select(key_pairs).where(
            key_pairs.c.user_id == user_id, key_pairs.c.name == name)).mappings().first()
    if row is None:
        raise exception.KeypairNotFound(user_id=user_id, name=name)
    return row


def page(user_id, limit=None, marker=None):
    """The user's keypairs by name, after the one named ``marker`` (a name
    of theirs, else MarkerNotFound), at most ``limit``."""
    if nul.in_any(marker):
        raise exception.MarkerNotFound(marker=marker)
    if nul.in_any(user_id):
        return []
    query = sa.select(key_pairs).where(key_pairs.c.user_id == user_id)
    with engine.reader() as conn:
        if marker is not None:
            found = conn.execute(sa.select(key_pairs.c.name).where(
                key_pairs.c.user_id == user_id, key_pairs.c.name == marker)).first()
            if found is None:
                raise exception.MarkerNotFound(marker=marker)
            query = query.where(key_pairs.c.name > found.name)
        query = query.order_by(key_pairs.c.name)
        if limit is not None:
            query = query.limit(limit)
        return conn.execute(query).mappings().all()


def destroy(user_id, name):
    """Delete the user's keypair ``name``; KeypairNotFound when there is none."""
    if nul.in_any(user_id, name):
        raise exception.KeypairNotFound(user_id=user_id, name=name)
    with engine.writer() as conn:
        deleted = conn.execute(sa.delete(key_pairs).where(
            key_pairs.c.user_id == user_id, key_pairs.c.name == name)).rowcount
    if not deleted:
        raise exception.KeypairNotFound(user_id=user_id, name=name)
