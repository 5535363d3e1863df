"""nova.policy's shortcut around oslo.policy (policy files and credentials
looked at once per request) changes no decision."""
import itertools
import os

import testtools

from nova import context as nova_context
from nova import policies
from nova import policy
from nova.tests import fixtures as nova_fixtures

CONTEXTS = ('admin:admin', 'demo:demo', 'alt:alt', 'reader:demo')
TARGETS = ({'project_id': 'demo'}, {'project_id': 'alt'}, {})


class PolicyChecksTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.policy = self.useFixture(nova_fixtures.Policy({
            'os_compute_api:servers:show:host_status':
                'rule:project_reader_or_admin and not role:banned',
        }))

    def test_decisions_equal_oslo_policy_own(self):
        names = [rule.name for rule in policies.list_rules()]
        for token, name, target in itertools.product(CONTEXTS, names, TARGETS):
            context = nova_context.from_noauth2_token(token)
            ours = policy.authorize(context, name, target, fatal=False)
            theirs = policy.init().authorize(name, target, context, do_raise=False)
            self.assertEqual(theirs, ours, (token, name, target))

    def test_policy_file_looked_at_once_per_request(self):
        rule = 'os_compute_api:servers:show:host_status'
        member = nova_context.from_noauth2_token('demo:demo')
        self.assertTrue(policy.authorize(member, rule, {'project_id': 'demo'}, fatal=False))
        with open(self.policy.path, 'w') as f:
            f.write('{"%s": "rule:admin_api"}' % rule)
        stat = os.stat(self.policy.path)
        os.utime(self.policy.path, (stat.st_atime, stat.st_mtime + 5))
        # the same request keeps the rules it started with...
        self.assertTrue(policy.authorize(member, rule, {'project_id': 'demo'}, fatal=False))
        # ...the next one sees the edit, without a restart
        member = nova_context.from_noauth2_token('demo:demo')
        self.assertFalse(policy.authorize(member, rule, {'project_id': 'demo'}, fatal=False))
