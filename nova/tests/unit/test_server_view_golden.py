"""The server view builder renders exactly what it rendered before it was
restructured for speed: every branch (see server_view_cases), microversion,
role, extended-attribute and host_status combination, hashed (SHA-256,
first 16 hex digits).

The digests were taken from the builder as of commit 3bb5e63. If a change
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
    '2.1 admin=False project=None mode=None extended=False': '6d641730145f46dc',
    '2.1 admin=False project=None mode=None extended=True': 'ddbc6ce608511f1c',
    '2.1 admin=False project=demo mode=None extended=False': 'f6f29d8c8e3cde69',
    '2.1 admin=False project=demo mode=None extended=True': 'e843f586224d3a0c',
    '2.1 admin=True project=None mode=None extended=False': 'd19c63ebb50d90e4',
    '2.1 admin=True project=None mode=None extended=True': 'a79ac5fa0f899dbb',
    '2.1 admin=True project=demo mode=None extended=False': 'ac35a8075c0e70c2',
    '2.1 admin=True project=demo mode=None extended=True': '3c2695156d0e316c',
    '2.15 admin=False project=None mode=None extended=False': '9b9db572c1b12354',
    '2.15 admin=False project=None mode=None extended=True': '3087ebe2113351e8',
    '2.15 admin=False project=demo mode=None extended=False': '33232c7f08c2cdf7',
    '2.15 admin=False project=demo mode=None extended=True': 'bff703d99972ba39',
    '2.15 admin=True project=None mode=None extended=False': '8ccad2d977ce8374',
    '2.15 admin=True project=None mode=None extended=True': '8180ef352022c931',
    '2.15 admin=True project=demo mode=None extended=False': 'fa17fdfc013860b2',
    '2.15 admin=True project=demo mode=None extended=True': '1305d504e9cd2ae0',
    '2.16 admin=False project=None mode=None extended=False': '9b9db572c1b12354',
    '2.16 admin=False project=None mode=None extended=True': '3087ebe2113351e8',
    '2.16 admin=False project=None mode=all extended=False': '917c1675402f377c',
    '2.16 admin=False project=None mode=all extended=True': '2a035221c1d374b3',
    '2.16 admin=False project=None mode=unknown-only extended=False': '2fb30c5b91eb1195',
    '2.16 admin=False project=None mode=unknown-only extended=True': 'c6fcde7eb1195539',
    '2.16 admin=False project=demo mode=None extended=False': '33232c7f08c2cdf7',
    '2.16 admin=False project=demo mode=None extended=True': 'bff703d99972ba39',
    '2.16 admin=False project=demo mode=all extended=False': 'cf447d468c745561',
    '2.16 admin=False project=demo mode=all extended=True': '572c59e5b011acc4',
    '2.16 admin=False project=demo mode=unknown-only extended=False': '27bf1f3473e9d959',
    '2.16 admin=False project=demo mode=unknown-only extended=True': 'a30dd10e3554133b',
    '2.16 admin=True project=None mode=None extended=False': '8ccad2d977ce8374',
    '2.16 admin=True project=None mode=None extended=True': '8180ef352022c931',
    '2.16 admin=True project=None mode=all extended=False': 'af91396b928f4fa6',
    '2.16 admin=True project=None mode=all extended=True': '4a68ec1ae1cb810e',
    '2.16 admin=True project=None mode=unknown-only extended=False': '63a98b45dd900111',
    '2.16 admin=True project=None mode=unknown-only extended=True': '8c728aea4aaefd56',
    '2.16 admin=True project=demo mode=None extended=False': 'fa17fdfc013860b2',
    '2.16 admin=True project=demo mode=None extended=True': '1305d504e9cd2ae0',
    '2.16 admin=True project=demo mode=all extended=False': 'bc7fda7c2ea81c7f',
    '2.16 admin=True project=demo mode=all extended=True': '9013586ba23ab3f5',
    '2.16 admin=True project=demo mode=unknown-only extended=False': '8e2331a29e7c233e',
    '2.16 admin=True project=demo mode=unknown-only extended=True': '7090b7b017c8f377',
    '2.3 admin=False project=None mode=None extended=False': '6d641730145f46dc',
    '2.3 admin=False project=None mode=None extended=True': '809e64e9d3f1dd0a',
    '2.3 admin=False project=demo mode=None extended=False': 'f6f29d8c8e3cde69',
    '2.3 admin=False project=demo mode=None extended=True': 'f066a7d796729839',
    '2.3 admin=True project=None mode=None extended=False': 'd19c63ebb50d90e4',
    '2.3 admin=True project=None mode=None extended=True': '408c8ccf77090103',
    '2.3 admin=True project=demo mode=None extended=False': 'ac35a8075c0e70c2',
    '2.3 admin=True project=demo mode=None extended=True': '99833c422a475aed',
    '2.9 admin=False project=None mode=None extended=False': '9b9db572c1b12354',
    '2.9 admin=False project=None mode=None extended=True': '3087ebe2113351e8',
    '2.9 admin=False project=demo mode=None extended=False': '33232c7f08c2cdf7',
    '2.9 admin=False project=demo mode=None extended=True': 'bff703d99972ba39',
    '2.9 admin=True project=None mode=None extended=False': '8ccad2d977ce8374',
    '2.9 admin=True project=None mode=None extended=True': '8180ef352022c931',
    '2.9 admin=True project=demo mode=None extended=False': 'fa17fdfc013860b2',
    '2.9 admin=True project=demo mode=None extended=True': '1305d504e9cd2ae0',
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
