"""The server view builder renders exactly what it rendered before it was
restructured for speed: every branch (see server_view_cases), microversion,
role, extended-attribute and host_status combination, hashed (SHA-256,
first 16 hex digits).

The digests were taken from the builder as of commit 3bb5e63, then
retaken when launched_at/terminated_at gained Nova's six digits of
microseconds when they are zero (".000000"). If a change
to the server JSON is intended, print the new digests with
``python -m nova.tests.unit.test_server_view_golden`` and review the
difference against the old rendering before replacing them.
"""
import hashlib
import json

import testtools

from nova.api.openstack.compute import server_access
from nova.api.openstack.compute.views import servers as views
from nova.tests.unit import server_view_cases as cases

DIGESTS = {
    '2.1 admin=False project=None mode=None extended=False': '6bfc0d1047c4e030',
    '2.1 admin=False project=None mode=None extended=True': '858438565ff5541d',
    '2.1 admin=False project=demo mode=None extended=False': 'ae4dce1b001e8d1b',
    '2.1 admin=False project=demo mode=None extended=True': 'e6e2391684e3e349',
    '2.1 admin=True project=None mode=None extended=False': '049c9bbb3980da0a',
    '2.1 admin=True project=None mode=None extended=True': 'fc4e95d1b5548afb',
    '2.1 admin=True project=demo mode=None extended=False': '6bf6ab72dfb771ad',
    '2.1 admin=True project=demo mode=None extended=True': 'd475ad301d2d2e96',
    '2.15 admin=False project=None mode=None extended=False': '51279b8de82519e2',
    '2.15 admin=False project=None mode=None extended=True': 'ab11ad4838af4d8b',
    '2.15 admin=False project=demo mode=None extended=False': 'ed253e56218288dd',
    '2.15 admin=False project=demo mode=None extended=True': '7cc329429d3bae4b',
    '2.15 admin=True project=None mode=None extended=False': '025bea2c93344bbb',
    '2.15 admin=True project=None mode=None extended=True': 'c6ee8a494fd3d911',
    '2.15 admin=True project=demo mode=None extended=False': '5c3ca8c60aeb6fc6',
    '2.15 admin=True project=demo mode=None extended=True': '2f8a95e83d786983',
    '2.16 admin=False project=None mode=None extended=False': '51279b8de82519e2',
    '2.16 admin=False project=None mode=None extended=True': 'ab11ad4838af4d8b',
    '2.16 admin=False project=None mode=all extended=False': 'aec240dc8fba81a8',
    '2.16 admin=False project=None mode=all extended=True': '23a0ca48a525d44d',
    '2.16 admin=False project=None mode=unknown-only extended=False': 'ab5e6ea5fe583bee',
    '2.16 admin=False project=None mode=unknown-only extended=True': '6ea5f72e7b9c1e38',
    '2.16 admin=False project=demo mode=None extended=False': 'ed253e56218288dd',
    '2.16 admin=False project=demo mode=None extended=True': '7cc329429d3bae4b',
    '2.16 admin=False project=demo mode=all extended=False': 'b498c7242ac84122',
    '2.16 admin=False project=demo mode=all extended=True': '7421d727693e8e0c',
    '2.16 admin=False project=demo mode=unknown-only extended=False': '04ac22ae79cc92b4',
    '2.16 admin=False project=demo mode=unknown-only extended=True': '74c045900cc3f6a1',
    '2.16 admin=True project=None mode=None extended=False': '025bea2c93344bbb',
    '2.16 admin=True project=None mode=None extended=True': 'c6ee8a494fd3d911',
    '2.16 admin=True project=None mode=all extended=False': 'cc6365c2a3fa3699',
    '2.16 admin=True project=None mode=all extended=True': '47e510d325fb533f',
    '2.16 admin=True project=None mode=unknown-only extended=False': '81fdd5663fee8081',
    '2.16 admin=True project=None mode=unknown-only extended=True': '5e7a2be90b420145',
    '2.16 admin=True project=demo mode=None extended=False': '5c3ca8c60aeb6fc6',
    '2.16 admin=True project=demo mode=None extended=True': '2f8a95e83d786983',
    '2.16 admin=True project=demo mode=all extended=False': '2f05c5c94904a146',
    '2.16 admin=True project=demo mode=all extended=True': '0f8baae17d289db6',
    '2.16 admin=True project=demo mode=unknown-only extended=False': '10c3ee81eafa6ce4',
    '2.16 admin=True project=demo mode=unknown-only extended=True': '29e31a0d1c589838',
    '2.3 admin=False project=None mode=None extended=False': '6bfc0d1047c4e030',
    '2.3 admin=False project=None mode=None extended=True': '984152918b97e9a3',
    '2.3 admin=False project=demo mode=None extended=False': 'ae4dce1b001e8d1b',
    '2.3 admin=False project=demo mode=None extended=True': '310bd60fc0e23081',
    '2.3 admin=True project=None mode=None extended=False': '049c9bbb3980da0a',
    '2.3 admin=True project=None mode=None extended=True': 'c27f51a199789f63',
    '2.3 admin=True project=demo mode=None extended=False': '6bf6ab72dfb771ad',
    '2.3 admin=True project=demo mode=None extended=True': 'dc6b6b8627d48011',
    '2.9 admin=False project=None mode=None extended=False': '51279b8de82519e2',
    '2.9 admin=False project=None mode=None extended=True': 'ab11ad4838af4d8b',
    '2.9 admin=False project=demo mode=None extended=False': 'ed253e56218288dd',
    '2.9 admin=False project=demo mode=None extended=True': '7cc329429d3bae4b',
    '2.9 admin=True project=None mode=None extended=False': '025bea2c93344bbb',
    '2.9 admin=True project=None mode=None extended=True': 'c6ee8a494fd3d911',
    '2.9 admin=True project=demo mode=None extended=False': '5c3ca8c60aeb6fc6',
    '2.9 admin=True project=demo mode=None extended=True': '2f8a95e83d786983',
}


def renderings():
    """{case label: JSON text of the rendered rows}."""
    found = {}
    for label, req, mode in cases.requests():
        for extended in (True, False):
            view = server_access.ServerView(extended=extended, host_status=mode)
            builder = views.ViewBuilder(req, view, cases.STATUSES)
            servers = [builder.detail(row) for row in cases.rows()]
            found['%s extended=%s' % (label, extended)] = json.dumps(servers)
    return found


def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class ServerViewGoldenTest(testtools.TestCase):

    def test_renderings_are_unchanged(self):
        found = renderings()
        self.assertEqual(sorted(DIGESTS), sorted(found))
        for label, text in sorted(found.items()):
            self.assertEqual(DIGESTS[label], digest(text), '%s now renders %s' % (label, text))

    def test_shared_values_are_not_shared_across_requests(self):
        label, req, mode = cases.requests()[-1]
        first = views.ViewBuilder(req).detail(cases.rows()[1])
        second = views.ViewBuilder(req).detail(cases.rows()[1])
        self.assertEqual(first, second)
        self.assertIsNot(first['flavor'], second['flavor'])
        self.assertIsNot(first['metadata'], second['metadata'])


if __name__ == '__main__':
    for name, text in sorted(renderings().items()):
        print('    %r: %r,' % (name, digest(text)))
