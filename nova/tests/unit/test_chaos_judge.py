"""The chaos histories' judge (nova/tests/functional/chaos.py) on a
stand-in all-in-one: a restarted host counts as settled 5 s after its
compute logged its start, not after its spawn (a slow start must not read
as an I2 violation), and a guest still there 5 s after that start is one."""
import json
import os
import types

import fixtures
import testtools

from nova.tests.functional import chaos


class _StandIn:
    """What a history reads of func.AllInOne, with computes that never
    start by themselves: the test writes their start line."""

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.host_names = ['host-1', 'host-2']
        self.restarted_computes = {}
        for sub in ('logs', 'hypervisors'):
            os.makedirs(os.path.join(data_dir, sub))

    def request(self, method, path, **kwargs):
        return types.SimpleNamespace(status=200, json={'servers': []})

    def restart_log(self, host):
        return os.path.join(self.data_dir, 'logs', 'restarted-%s.log' % host)

    def start_compute(self, host):
        with open(self.restart_log(host), 'a') as log:
            log.write('a compute importing its modules\n')

    def compute_started(self, host):
        with open(self.restart_log(host), 'a') as log:
            log.write('INFO nova-compute on host %s started (service id 1)\n' % host)

    def run_guests(self, host, uuids):
        with open(os.path.join(self.data_dir, 'hypervisors', host + '.json'), 'w') as f:
            json.dump({uuid: 1 for uuid in uuids}, f)


class RestartSettlingTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.nova = _StandIn(self.useFixture(fixtures.TempDir()).path)
        self.history = chaos.History(self.nova, seed=1, steps=0)
        self.addCleanup(self.history.stop)
        # a server deleted long ago whose guest host-1 still runs: its
        # compute was killed before it could destroy it
        self.history.created.append('gone')
        self.history.deleted['gone'] = -100.0
        self.nova.run_guests('host-1', ['gone'])
        self.history.killed.add('host-1')

    def _age(self, host, seconds):
        self.history.disturbed[host] -= seconds

    def test_a_compute_still_starting_is_not_judged(self):
        self.history._restart('host-1')
        self._age('host-1', 60)          # spawned a minute ago, not started yet
        self.history.check_safety('while starting')
        self.nova.compute_started('host-1')
        self.history.check_safety('just started')
        self.assertEqual({}, self.history.starting)

    def test_a_guest_left_after_the_start_settled_is_a_violation(self):
        self.history._restart('host-1')
        self.nova.compute_started('host-1')
        self.history.check_safety('just started')
        self._age('host-1', chaos.SETTLE)
        error = self.assertRaises(chaos.Violation, self.history.check_safety, 'settled')
        self.assertIn('I2', str(error))

    def test_a_second_restart_waits_for_its_own_start_line(self):
        self.history._restart('host-1')
        self.nova.compute_started('host-1')
        self.history.check_safety('first start')
        self.history.killed.add('host-1')
        self.history._restart('host-1')
        self._age('host-1', 60)          # the first start's line is still in the log
        self.history.check_safety('second start pending')
        self.assertEqual(['host-1'], list(self.history.starting))
