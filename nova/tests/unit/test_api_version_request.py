import testtools
import webob

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import app
from nova.api.openstack import faults


def version_of(**headers):
    return app.requested_version(webob.Request.blank('/v2.1/servers', headers=headers))


class ParseTest(testtools.TestCase):

    def test_range(self):
        self.assertEqual('2.1', str(avr.min_version()))
        self.assertEqual('2.16', str(avr.max_version()))

    def test_ordering_is_numeric(self):
        self.assertLess(avr.APIVersionRequest('2.9'), avr.APIVersionRequest('2.16'))
        self.assertTrue(avr.APIVersionRequest('2.16').at_least('2.16'))
        self.assertFalse(avr.APIVersionRequest('2.15').at_least('2.16'))

    def test_malformed(self):
        for text in ('2.x', 'garbage', '2.16.1', '2', '02.1', ''):
            self.assertRaises(avr.InvalidFormat, avr.APIVersionRequest, text)


class HeaderTest(testtools.TestCase):

    def test_no_header_is_2_1(self):
        self.assertEqual('2.1', str(version_of()))

    def test_empty_or_other_service_is_2_1(self):
        self.assertEqual('2.1', str(version_of(**{'OpenStack-API-Version': 'compute '})))
        self.assertEqual('2.1', str(version_of(**{'OpenStack-API-Version': 'identity 3.0'})))

    def test_boundary(self):
        self.assertEqual('2.15', str(version_of(**{'OpenStack-API-Version': 'compute 2.15'})))
        self.assertEqual('2.16', str(version_of(**{'OpenStack-API-Version': 'compute 2.16'})))

    def test_latest_is_max(self):
        self.assertEqual('2.16', str(version_of(**{'OpenStack-API-Version': 'compute latest'})))

    def test_legacy_header(self):
        self.assertEqual('2.9', str(version_of(**{'X-OpenStack-Nova-API-Version': '2.9'})))

    def test_new_header_wins_over_legacy(self):
        self.assertEqual('2.16', str(version_of(**{'OpenStack-API-Version': 'compute 2.16',
                                                   'X-OpenStack-Nova-API-Version': '2.3'})))

    def test_unsupported_is_406_and_echoes_the_version(self):
        for text in ('2.17', '2.999', '3.0', '2.0'):
            exc = self.assertRaises(faults.Fault, version_of,
                                    **{'OpenStack-API-Version': 'compute ' + text})
            self.assertEqual(406, exc.code)
            self.assertEqual('Version %s is not supported by the API. Minimum is 2.1 and '
                             'maximum is 2.16.' % text, exc.message)
            self.assertIn(('OpenStack-API-Version', 'compute ' + text), exc.headers)

    def test_malformed_is_400_without_version_headers(self):
        exc = self.assertRaises(faults.Fault, version_of,
                                **{'OpenStack-API-Version': 'compute 2.x'})
        self.assertEqual(400, exc.code)
        self.assertEqual('API Version String 2.x is of invalid format. Must be of format '
                         'MajorNum.MinorNum.', exc.message)
        self.assertFalse(hasattr(exc, 'headers'))
