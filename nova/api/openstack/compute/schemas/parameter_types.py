"""Schema fragments several request bodies share, as Nova defines them."""

# true/false, or a string oslo's bool_from_string reads as one
boolean = {'type': ['boolean', 'string'],
           'enum': [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on', 'YES', 'Yes',
                    'yes', False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off', 'off',
                    'NO', 'No', 'no']}
