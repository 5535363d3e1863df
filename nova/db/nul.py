"""No text this service stores holds a NUL character: the API refuses one
in every name, key and tag it writes, and PostgreSQL could not keep one
anyway (psycopg2 will not even send a statement with one bound). A lookup
or a filter by a value holding one therefore matches nothing, and the DB
API answers so without asking the database: the same answer on every
database, where PostgreSQL alone would fail."""


def in_any(*values):
    """Whether a NUL is in any of ``values``: strings, lists of strings or
    None."""
    for value in values:
        if isinstance(value, str):
            if '\x00' in value:
                return True
        elif isinstance(value, (list, tuple, set, frozenset)):
            if any(isinstance(v, str) and '\x00' in v for v in value):
                return True
    return False
