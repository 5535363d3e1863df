import testtools

from nova.api.openstack import api_version_request as avr


class ParseTest(testtools.TestCase):

    def test_range(self):
        self.assertEqual('2.1', str(avr.min_version()))
        self.assertEqual('2.53', str(avr.max_version()))

    def test_ordering_is_numeric(self):
        self.assertLess(avr.APIVersionRequest('2.9'), avr.APIVersionRequest('2.16'))
        self.assertTrue(avr.APIVersionRequest('2.16').at_least('2.16'))
        self.assertFalse(avr.APIVersionRequest('2.15').at_least('2.16'))

    def test_malformed(self):
        for text in ('2.x', 'garbage', '2.16.1', '2', '02.1', ''):
            self.assertRaises(avr.InvalidFormat, avr.APIVersionRequest, text)
