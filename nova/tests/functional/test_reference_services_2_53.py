"""The os-services captures of OpenStack Nova 34 at 2.52 and 2.53
(../shared/reference/nova-34/v2.53/services-*.json), replayed against our
service with the host_status cases seeded (cases.py).

The faults are compared as a whole: status, version headers, fault name
and message. The lists name the reference cloud's own hosts (h-up, ...,
bulk-49), so each of our services is compared with the captured service
of the same case, key for key and in order, with its host, id, reason
text and times masked (an id's type is kept: an integer below 2.53, a
UUID from 2.53)."""
from oslo_utils import uuidutils

from nova.tests.functional import cases
from nova.tests.functional import json_diff
from nova.tests.functional import reference

SUBDIR = 'v2.53'
LISTS = ('services-2.52.json', 'services-2.53.json')
# our host -> the captured host of the same case
CASE_HOSTS = {'host-1': 'h-up', 'host-2': 'h-stale', 'host-3': 'h-forced',
              'host-4': 'h-disabled', 'host-5': 'h-forced-disabled'}


def _masked(service):
    shown = {}
    for key, value in service.items():
        if key == 'id':
            value = '<uuid>' if uuidutils.is_uuid_like(value) else type(value).__name__
        elif key == 'host':
            value = '<host>'
        elif key == 'disabled_reason' and value is not None:
            value = '<reason>'
        shown[key] = value
    return reference.normalize(shown)


class ReferenceServicesTest(cases.SeededTestCase):

    @classmethod
    def setUpClass(cls):
        reference.directory()       # fail before starting anything if missing
        super().setUpClass()

    def _captures(self):
        return [(name, capture) for name, capture in reference.captures(SUBDIR)
                if name.startswith('services-')]

    def _replay(self, capture):
        request = capture['request']
        return self.nova.request(request['method'], request['path'], token=None,
                                 body=request['body'], headers=dict(request['headers']))

    def _problems(self, name, capture):
        ours = self._replay(capture)
        problems = reference.status_and_header_problems(capture, ours)
        expected, actual = reference.body(capture), ours.json
        if name in LISTS:
            captured = {s['host']: s for s in expected['services']}
            expected = [_masked(captured[CASE_HOSTS[s['host']]]) for s in actual['services']]
            actual = [_masked(s) for s in actual['services']]
        else:
            expected = reference.normalize(expected, nova=True)
            actual = reference.normalize(actual)
        problems += json_diff.differences(expected, actual)
        return ['%s: %s' % (name, p) for p in problems]

    def test_services_captures(self):
        captures = self._captures()
        self.assertEqual(8, len(captures), [name for name, _ in captures])
        problems = []
        for name, capture in captures:
            problems += self._problems(name, capture)
        self.assertEqual([], problems)

    def test_lists_hold_every_case(self):
        for name in LISTS:
            listed = self._replay(reference.load('%s/%s' % (SUBDIR, name))).json['services']
            self.assertEqual(sorted(CASE_HOSTS), sorted(s['host'] for s in listed), name)

    def test_the_check_bites(self):
        capture = reference.load('%s/services-2.53.json' % SUBDIR)
        older = dict(capture, request=dict(capture['request'], headers=dict(
            capture['request']['headers'], **{'OpenStack-API-Version': 'compute 2.52'})))
        problems = self._problems('services-2.53.json', older)
        self.assertTrue(any("expected '<uuid>', found 'int'" in p for p in problems), problems)
