"""The simulated hypervisor's full disk, which the fault-injection tests
use: a spawn fails as a real one would, half a guest left behind."""
import errno
import os
import threading

import fixtures
import testtools

from nova.virt import fake


class DiskFullTest(testtools.TestCase):

    def test_a_full_disk_fails_spawns_until_it_is_freed(self):
        state_file = os.path.join(self.useFixture(fixtures.TempDir()).path, 'h1.json')
        driver = fake.FakeDriver(0, state_file)
        fake.fill_disk(state_file)
        error = self.assertRaises(OSError, driver.spawn, 'vm1', threading.Event())
        self.assertEqual(errno.ENOSPC, error.errno)
        # what a failed spawn leaves, as the next process reads it
        self.assertEqual({'vm1': fake.POWER_NOSTATE},
                         fake.FakeDriver(0, state_file).power_states())
        fake.fill_disk(state_file, full=False)
        self.assertEqual(fake.POWER_RUNNING, driver.spawn('vm2', threading.Event()))
        fake.fill_disk(state_file, full=False)      # freeing a free disk is no error
