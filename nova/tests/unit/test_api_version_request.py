import re

import testtools

from nova.api.openstack import api_version_request as avr


class ParseTest(testtools.TestCase):

    def test_range(self):
        self.assertEqual('2.1', str(avr.min_version()))
        self.assertEqual('2.73', str(avr.max_version()))

    def test_history_covers_every_version_up_to_the_maximum(self):
        # each entry "* 2.N - ..." or "* 2.A - 2.B: ..." in the module's
        # docstring; every version from 2.1 to the maximum once, none after
        covered = []
        for first, last in re.findall(r'^\* 2\.(\d+)\s+-\s+(?:2\.(\d+):)?',
                                      avr.__doc__, re.MULTILINE):
            covered += range(int(first), int(last or first) + 1)
        self.assertEqual(list(range(1, avr.max_version().minor + 1)), covered)

    def test_every_named_version_is_served(self):
        named = [value for name, value in vars(avr).items()
                 if name.isupper() and isinstance(value, str) and re.match(r'^2\.\d+$', value)]
        for version in named:
            self.assertTrue(avr.APIVersionRequest(version).supported(), version)

    def test_ordering_is_numeric(self):
        self.assertLess(avr.APIVersionRequest('2.9'), avr.APIVersionRequest('2.16'))
        self.assertTrue(avr.APIVersionRequest('2.16').at_least('2.16'))
        self.assertFalse(avr.APIVersionRequest('2.15').at_least('2.16'))

    def test_malformed(self):
        for text in ('2.x', 'garbage', '2.16.1', '2', '02.1', ''):
            self.assertRaises(avr.InvalidFormat, avr.APIVersionRequest, text)
