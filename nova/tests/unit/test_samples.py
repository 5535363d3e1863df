"""The committed etc/nova/nova.conf.sample and etc/nova/policy.yaml.sample
must describe the code: every option and rule, with its current default.
When one of these fails, run ``tox -e genconfig`` or ``tox -e genpolicy``
and commit the result."""
import io
import os
import re

import testtools
from oslo_config import cfg
from oslo_config import generator

import nova
from nova.conf import opts as conf_opts
from nova import policies

REPO = os.path.dirname(os.path.dirname(os.path.abspath(nova.__file__)))
CONFIG_SAMPLE = os.path.join(REPO, 'etc', 'nova', 'nova.conf.sample')
POLICY_SAMPLE = os.path.join(REPO, 'etc', 'nova', 'policy.yaml.sample')

_GROUP = re.compile(r'^\[([^\]]+)\]$')
_NAMESPACE = re.compile(r'^# From (\S+)$')
_OPTION = re.compile(r'^#([\w-]+) =(?: (.*))?$')
_RULE = re.compile(r'^#"([^"]+)": "(.*)"$')


def config_sample_options(text):
    """{(group, namespace): {option: default as shown}} of a sample."""
    found = {}
    group = namespace = None
    for line in text.splitlines():
        if _GROUP.match(line):
            group, namespace = _GROUP.match(line).group(1), None
        elif _NAMESPACE.match(line):
            namespace = _NAMESPACE.match(line).group(1)
        elif _OPTION.match(line) and group:
            name, value = _OPTION.match(line).groups()
            found.setdefault((group, namespace), {})[name] = value or ''
    return found


def policy_sample_rules(text):
    """{rule: check string} of a policy sample."""
    return dict(m.groups() for m in map(_RULE.match, text.splitlines()) if m)


def generated_config(namespace):
    conf = cfg.ConfigOpts()
    generator.register_cli_opts(conf)
    conf(['--namespace', namespace], project='nova-sample-test', default_config_files=[])
    out = io.StringIO()
    generator.generate(conf, output_file=out)
    return out.getvalue()


class ConfigSampleTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        if not os.path.exists(CONFIG_SAMPLE):
            self.skipTest('no etc/nova beside the package (not a source tree)')
        with open(CONFIG_SAMPLE) as f:
            self.committed = config_sample_options(f.read())

    def test_every_registered_option_is_in_the_sample(self):
        missing = []
        for group, opts in conf_opts.list_opts():
            shown = self.committed.get((group, 'nova'), {})
            missing += ['[%s] %s' % (group, opt.dest) for opt in opts
                        if opt.dest not in shown]
        self.assertEqual([], missing, 'options missing from etc/nova/nova.conf.sample; '
                                      'run tox -e genconfig')

    def test_our_options_and_defaults_match_the_code(self):
        generated = {key: value for key, value
                     in config_sample_options(generated_config('nova')).items()}
        committed = {key: value for key, value in self.committed.items()
                     if key[1] == 'nova'}
        self.assertEqual(generated, committed, 'etc/nova/nova.conf.sample is stale; '
                                               'run tox -e genconfig')

    def test_the_sample_lists_the_options_operators_tune(self):
        # A guard on the parser itself: an empty parse would pass the tests above.
        self.assertEqual('60', self.committed[('DEFAULT', 'nova')]['service_down_time'])
        self.assertEqual('10', self.committed[('DEFAULT', 'nova')]['report_interval'])
        self.assertIn(('oslo_policy', 'oslo.policy'), self.committed)
        self.assertIn(('keystone_authtoken', 'keystonemiddleware.auth_token'),
                      self.committed)


class PolicySampleTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        if not os.path.exists(POLICY_SAMPLE):
            self.skipTest('no etc/nova beside the package (not a source tree)')
        with open(POLICY_SAMPLE) as f:
            self.committed = policy_sample_rules(f.read())

    def test_every_rule_is_in_the_sample_with_its_default(self):
        in_code = {rule.name: rule.check_str for rule in policies.list_rules()}
        self.assertEqual(in_code, self.committed, 'etc/nova/policy.yaml.sample is stale; '
                                                  'run tox -e genpolicy')

    def test_host_status_rules_are_documented(self):
        self.assertEqual('rule:admin_api',
                         self.committed['os_compute_api:servers:show:host_status'])
        self.assertEqual(
            'rule:admin_api',
            self.committed['os_compute_api:servers:show:host_status:unknown-only'])


class SampleParserTest(testtools.TestCase):
    """The parsers see what the checks rely on, so a missing entry fails."""

    def test_config_parser(self):
        text = ('[DEFAULT]\n\n#\n# From nova\n#\n\n# Help.\n#report_interval = 10\n\n'
                '#\n# From oslo.log\n#\n\n#debug = false\n\n\n[api]\n\n#\n# From nova\n'
                '#\n\n#max_limit = 1000\n\n#empty =\n')
        self.assertEqual({('DEFAULT', 'nova'): {'report_interval': '10'},
                          ('DEFAULT', 'oslo.log'): {'debug': 'false'},
                          ('api', 'nova'): {'max_limit': '1000', 'empty': ''}},
                         config_sample_options(text))

    def test_policy_parser(self):
        text = ('# Show a server\n# GET  /servers/{server_id}\n'
                '#"os_compute_api:servers:show": "rule:project_reader_or_admin"\n\n'
                '#"admin_api": "role:admin"\n')
        self.assertEqual({'os_compute_api:servers:show': 'rule:project_reader_or_admin',
                          'admin_api': 'role:admin'}, policy_sample_rules(text))
