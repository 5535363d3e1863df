"""Schema fragments several request bodies share, as Nova defines them."""
from nova.db.types import MAX_FLOAT, MAX_INT  # noqa: F401 (types.MAX_FLOAT for schemas)

# true/false, or a string oslo's bool_from_string reads as one
boolean = {'type': ['boolean', 'string'],
           'enum': [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES', 'Yes',
                    'yes', False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off',
                    'NO', 'No', 'no']}

# a name kept in the database (server, flavor, keypair): printable text
# without leading or trailing whitespace
name = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    'pattern': r'^(?!\s)[^\x00-\x1f\x7f]*(?<!\s)$',
}

# a count of a flavor: an integer, or a string of digits
flavor_positive = {'type': ['integer', 'string'], 'pattern': '^[0-9]+$', 'minimum': 1,
                   'maximum': MAX_INT}
flavor_non_negative = dict(flavor_positive, minimum=0)

# ?limit: a count, as an integer or digits
non_negative_integer = {'type': ['integer', 'string'], 'pattern': '^[0-9]*$', 'minimum': 0,
                        'minLength': 1}
