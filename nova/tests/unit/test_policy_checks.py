"""nova.policy's savings around oslo.policy change no decision: policy files
and credentials looked at once per request, and pure decisions remembered
until the rules change."""
import functools
import itertools
import os
import time

import fixtures
import testtools
from oslo_policy import policy as oslo_policy

import nova.conf
from nova import context as nova_context
from nova import policies
from nova import policy
from nova.tests import fixtures as nova_fixtures

CONF = nova.conf.CONF
CONTEXTS = ('admin:admin', 'demo:demo', 'alt:alt', 'reader:demo')
TARGETS = ({'project_id': 'demo'}, {'project_id': 'alt'}, {})


def member_allowed(rule):
    """A new request's answer to a member of demo asking ``rule``."""
    member = nova_context.from_noauth2_token('demo:demo')
    return policy.authorize(member, rule, {'project_id': 'demo'}, fatal=False)


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

    def test_oslo_policy_loads_only_when_a_policy_file_changed(self):
        rule = 'os_compute_api:servers:show:host_status'

        allowed = functools.partial(member_allowed, rule)
        self.assertTrue(allowed())
        loads = self.useFixture(fixtures.MockPatchObject(
            oslo_policy.Enforcer, 'load_rules', autospec=True,
            side_effect=oslo_policy.Enforcer.load_rules)).mock
        for _ in range(5):
            self.assertTrue(allowed())
        self.assertEqual(0, loads.call_count)
        with open(self.policy.path, 'w') as f:
            f.write('{"%s": "rule:admin_api"}' % rule)
        stat = os.stat(self.policy.path)
        os.utime(self.policy.path, (stat.st_atime, stat.st_mtime + 5))
        self.assertFalse(allowed())
        self.assertFalse(allowed())
        self.assertEqual(1, loads.call_count)

    def test_a_policy_file_that_comes_after_the_start_is_read(self):
        rule = 'os_compute_api:servers:show:host_status'      # admins only by default
        later = os.path.join(self.useFixture(fixtures.TempDir()).path, 'later.yaml')
        CONF.set_override('policy_file', later, group='oslo_policy')
        policy.reset()

        allowed = functools.partial(member_allowed, rule)
        self.assertFalse(allowed())
        self.assertFalse(allowed())
        with open(later, 'w') as f:
            f.write('"%s": "rule:project_reader_or_admin"\n' % rule)
        self.assertTrue(allowed())
        os.remove(later)
        self.assertFalse(allowed())     # removed: the defaults again, as oslo.policy has it

    def test_a_policy_directory_is_looked_at_once_per_request_too(self):
        rule = 'os_compute_api:servers:show:host_status'
        directory = self.useFixture(fixtures.TempDir()).path
        CONF.set_override('policy_dirs', [directory], group='oslo_policy')
        self.addCleanup(CONF.clear_override, 'policy_dirs', group='oslo_policy')
        policy.reset()
        # every change a later mtime, whatever the file system's resolution,
        # yet in the past (removing a file stamps the directory now)
        stamps = itertools.count(time.time() - 100, 10)

        def write(path, text, new=False):
            with open(path, 'w') as f:
                f.write(text)
            stamp = next(stamps)
            os.utime(path, (stamp, stamp))
            if new:     # the directory's mtime changes only when a file comes
                os.utime(directory, (stamp, stamp))

        allowed = functools.partial(member_allowed, rule)
        stamp = next(stamps)
        os.utime(directory, (stamp, stamp))
        self.assertTrue(allowed())
        override = os.path.join(directory, 'override.yaml')
        write(override, '"%s": "rule:admin_api"\n' % rule, new=True)
        self.assertFalse(allowed())        # a file added to the directory
        write(override, '"%s": "rule:project_reader_or_admin"\n' % rule)
        self.assertTrue(allowed())         # the file edited
        write(self.policy.path, '{"%s": "!"}' % rule)
        # the policy file edited: the directory still has the last word
        self.assertTrue(allowed())
        os.remove(override)
        self.assertFalse(allowed())        # its file removed: the policy file's rule


class DecisionMemoTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.policy = self.useFixture(nova_fixtures.Policy())

    def count_evaluations(self, rule, requests=3):
        enforcer = policy.init()
        calls = []
        original = enforcer.authorize

        def counting(*args, **kwargs):
            calls.append(args[0])
            return original(*args, **kwargs)

        enforcer.authorize = counting
        self.addCleanup(delattr, enforcer, 'authorize')
        answers = {policy.authorize(nova_context.from_noauth2_token('demo:demo'), rule,
                                    {'project_id': 'demo'}, fatal=False)
                   for _ in range(requests)}
        self.assertEqual(1, len(answers))
        return len([c for c in calls if c == rule])

    def test_pure_rules_are_decided_once_per_rules_version(self):
        rule = 'os_compute_api:servers:show'
        self.assertEqual(1, self.count_evaluations(rule))
        self.policy.set_rules({rule: 'rule:admin_api'})
        self.assertEqual(1, self.count_evaluations(rule))
        self.assertFalse(policy.authorize(nova_context.from_noauth2_token('demo:demo'),
                                          rule, {'project_id': 'demo'}, fatal=False))

    def test_rules_with_other_checks_are_decided_every_time(self):
        calls = []

        @oslo_policy.register('nova_test_counting')
        class Counting(oslo_policy.Check):
            def __call__(self, target, creds, enforcer):
                calls.append(1)
                return True

        self.addCleanup(oslo_checks_registry().pop, 'nova_test_counting')
        rule = 'os_compute_api:servers:show'
        self.policy.set_rules({rule: 'nova_test_counting:x or rule:admin_api'})
        self.assertEqual(3, self.count_evaluations(rule))
        self.assertEqual(3, len(calls))


def oslo_checks_registry():
    from oslo_policy import _checks
    return _checks.registered_checks
