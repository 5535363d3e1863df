"""schemathesis against the running all-in-one, from the OpenAPI document
the package publishes (nova/api/openstack/openapi.py): no 5xx, every
status and body as documented (every 4xx in Nova's fault form), invalid
input refused, with a fixed seed and a bounded number of cases. A
project member's run is on the embedded SQLite, an admin's on PostgreSQL,
where values SQLite takes can fail (a NUL in a URL answered 500 there)."""
import json
import os
import subprocess
import sys

import fixtures
import testtools

from nova.api.openstack import openapi
from nova.api.openstack import routes
from nova.tests.functional.db import backend
from nova.tests.functional import fixtures as func

CHECKS = ('not_a_server_error,status_code_conformance,content_type_conformance,'
          'response_schema_conformance,negative_data_rejection,use_after_free')
EXAMPLES_PER_OPERATION = 15
SEED = 20261201
# long polls of the host status events cut to 1 s: an idle feed would
# otherwise hold each generated case for its whole wait
ALL_IN_ONE = dict(hosts=2, extra_config='[api]\nmax_long_poll = 1\n')


class _Fuzz:

    def fuzz(self, nova, token):
        work = self.useFixture(fixtures.TempDir()).path
        document = os.path.join(work, 'openapi.json')
        with open(document, 'w') as f:
            json.dump(openapi.document(), f)
        command = [os.path.join(os.path.dirname(sys.executable), 'st'), 'run', document,
                   '--url', nova.url + '/v2.1', '-H', 'X-Auth-Token: ' + token,
                   '--checks', CHECKS, '--max-examples', str(EXAMPLES_PER_OPERATION),
                   '--seed', str(SEED), '--workers', '1', '--no-color',
                   '--generation-database', 'none', '--request-timeout', '30']
        done = subprocess.run(command, cwd=work, capture_output=True, text=True,
                              timeout=600)
        self.addDetail('schemathesis', testtools.content.text_content(done.stdout[-20000:]))
        self.assertEqual(0, done.returncode, done.stdout[-6000:] + done.stderr[-2000:])


class FuzzTest(_Fuzz, func.SharedAllInOneTestCase):
    ALL_IN_ONE = ALL_IN_ONE

    def test_the_document_covers_every_route(self):
        paths = openapi.document()['paths']
        for template, methods in routes.route_declarations().items():
            self.assertEqual(sorted(m.lower() for m in methods), sorted(paths[template]))

    def test_as_a_project_member(self):
        self.fuzz(self.nova, func.DEMO)


class FuzzPostgreSQLTest(_Fuzz, testtools.TestCase):

    def test_as_an_admin(self):
        nova, _, _ = backend.start(self, 'postgresql', **ALL_IN_ONE)
        self.fuzz(nova, func.ADMIN)
