"""Schema fragments several request bodies share, as Nova defines them."""
from nova.compute.flavors import MAX_FLOAT, MAX_INT  # noqa: F401 (types.MAX_FLOAT for schemas)

# true/false, or a string oslo's bool_from_string reads as one
boolean = {'type': ['boolean', 'string'],
           'enum': [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES', 'Yes',
                    'yes', False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off',
                    'NO', 'No', 'no']}

# printable text without leading or trailing whitespace
_PRINTABLE_TRIMMED = r'^(?!\s)[^\x00-\x1f\x7f%s]*(?<!\s)$'
name = {'type': 'string', 'minLength': 1, 'maxLength': 255,
        'pattern': _PRINTABLE_TRIMMED % ''}
# an availability zone's name: the same, without ':'
az_name = {'type': 'string', 'minLength': 1, 'maxLength': 255,
           'pattern': _PRINTABLE_TRIMMED % ':'}
# a host name as the services table holds it (underscores allowed)
fqdn = {'type': 'string', 'pattern': '^[a-zA-Z0-9-._]*$', 'minLength': 1, 'maxLength': 255}

# text PostgreSQL can store: no NUL character. Where Nova's schema lets
# one through, Nova answers 500 on PostgreSQL; here it is a 400 on every
# database, and no stored value holds one (nova/db/nul.py relies on it).
NO_NUL = '^[^\x00]*$'
# the same as a schema's ``not``, where a field keeps Nova's own pattern
HOLDS_NUL = {'pattern': '\x00'}

# metadata of servers and aggregates, extra specs of flavors
METADATA_KEY = '^[a-zA-Z0-9-_:. ]{1,255}$'


def metadata(value_types='string', in_columns=False):
    """Keys of METADATA_KEY's form, each value of ``value_types`` (at most
    255 characters when text). ``in_columns``: values kept in a text column
    of their own refuse NUL (NO_NUL)."""
    value = {'type': value_types, 'maxLength': 255}
    if in_columns:
        value['pattern'] = NO_NUL
    return {'type': 'object', 'patternProperties': {METADATA_KEY: value},
            'additionalProperties': False}

# a count of a flavor: an integer, or a string of digits
flavor_positive = {'type': ['integer', 'string'], 'pattern': '^[0-9]+$', 'minimum': 1,
                   'maximum': MAX_INT}
flavor_non_negative = dict(flavor_positive, minimum=0)

# ?limit: a count, as an integer or digits
non_negative_integer = {'type': ['integer', 'string'], 'pattern': '^[0-9]*$', 'minimum': 0,
                        'minLength': 1}
