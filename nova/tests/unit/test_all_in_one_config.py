"""nova-all-in-one's --fence turns the watcher's fencing on (issue 26);
an operator's own --config-file still tunes or turns off what it set."""
import os

import fixtures
import testtools
from oslo_config import cfg

from nova.cmd import all_in_one
from nova.conf import fencing


class FenceConfigTest(testtools.TestCase):
    def _fencing(self, *argv):
        data_dir = self.useFixture(fixtures.TempDir()).path
        _, files = all_in_one.write_config(all_in_one.parse(['--data-dir', data_dir, *argv]))
        conf = cfg.ConfigOpts()
        fencing.register_opts(conf)
        conf(files)
        return conf.fencing.enabled, conf.fencing.fence_after_unknown

    def test_fence_turns_fencing_on_at_once(self):
        self.assertEqual((True, 0), self._fencing('--fence', 'redfish'))

    def test_an_operator_file_overrides_it(self):
        own = os.path.join(self.useFixture(fixtures.TempDir()).path, 'own.conf')
        with open(own, 'w') as f:
            f.write('[fencing]\nfence_after_unknown = 12\n')
        self.assertEqual((True, 12), self._fencing('--fence', 'redfish', '--config-file', own))
