"""Request bodies from bytes to JSON values, refusing what would break later.

The decoder recurses once per nesting level, so a body a few thousand
levels deep raises RecursionError (a 500); one just under the interpreter's
limit parses, then overflows the stack in the schema validator or when a
message quotes the value. Strings with lone surrogates ("\\ud800") parse
but cannot be stored. All of these are malformed bodies: 400.
"""
import json

from nova.api.openstack import faults

# Far deeper than any body the API defines (a server create is 4 levels,
# scheduler hints a few more), far shallower than the interpreter's stack.
MAX_DEPTH = 64
MALFORMED = 'Malformed request body'


def loads(raw):
    """The JSON value of ``raw`` (bytes); BadRequest if it is malformed."""
    try:
        value = json.loads(raw)
    except RecursionError:
        raise faults.BadRequest('%s: nested deeper than %d levels' % (MALFORMED, MAX_DEPTH))
    except ValueError:
        raise faults.BadRequest(MALFORMED)
    _check(value)
    return value


def _check(value):
    # Iterative on purpose: the point is not to recurse per level.
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_text(item)
            continue
        if isinstance(item, dict):
            for key in item:
                _check_text(key)
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            raise faults.BadRequest('%s: nested deeper than %d levels' % (MALFORMED, MAX_DEPTH))
        pending.extend((child, depth + 1) for child in children)


def _check_text(text):
    if not text.isascii():
        try:
            text.encode('utf-8')
        except UnicodeEncodeError:
            raise faults.BadRequest('%s: a string holds a lone UTF-16 surrogate' % MALFORMED)
