"""schemathesis against the running all-in-one, from the OpenAPI document
the package publishes (nova/api/openstack/openapi.py): no 5xx, every
status and body as documented (every 4xx in Nova's fault form), invalid
input refused, with a fixed seed and a bounded number of cases."""
import json
import os
import subprocess
import sys

import fixtures
import testtools

from nova.api.openstack import openapi
from nova.api.openstack import routes
from nova.tests.functional import fixtures as func

CHECKS = ('not_a_server_error,status_code_conformance,content_type_conformance,'
          'response_schema_conformance,negative_data_rejection,use_after_free')
EXAMPLES_PER_OPERATION = 15
SEED = 20261201


class FuzzTest(func.SharedAllInOneTestCase):
    # long polls of the host status events cut to 1 s: an idle feed would
    # otherwise hold each generated case for its whole wait
    ALL_IN_ONE = dict(hosts=2, extra_config='[api]\nmax_long_poll = 1\n')

    def setUp(self):
        super().setUp()
        self.work = self.useFixture(fixtures.TempDir()).path
        self.document = os.path.join(self.work, 'openapi.json')
        with open(self.document, 'w') as f:
            json.dump(openapi.document(), f)

    def test_the_document_covers_every_route(self):
        paths = openapi.document()['paths']
        for template, methods in routes.route_declarations().items():
            self.assertEqual(sorted(m.lower() for m in methods), sorted(paths[template]))

    def fuzz(self, token):
        command = [os.path.join(os.path.dirname(sys.executable), 'st'), 'run', self.document,
                   '--url', self.nova.url + '/v2.1', '-H', 'X-Auth-Token: ' + token,
                   '--checks', CHECKS, '--max-examples', str(EXAMPLES_PER_OPERATION),
                   '--seed', str(SEED), '--workers', '1', '--no-color',
                   '--generation-database', 'none', '--request-timeout', '30']
        done = subprocess.run(command, cwd=self.work, capture_output=True, text=True,
                              timeout=600)
        self.addDetail('schemathesis', testtools.content.text_content(done.stdout[-20000:]))
        self.assertEqual(0, done.returncode, done.stdout[-6000:] + done.stderr[-2000:])

    def test_as_an_admin(self):
        self.fuzz(func.ADMIN)

    def test_as_a_project_member(self):
        self.fuzz(func.DEMO)
