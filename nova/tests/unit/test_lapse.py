"""LapseGuard.lapse(since=...): a lapse that the poll's own reads showed is
swept by that poll; one noticed after its reads began is not."""
import time

import testtools

from nova.compute import lapse


class LapseSinceTest(testtools.TestCase):

    def _guard(self):
        guard = lapse.LapseGuard(max_gap=60)
        guard.swept(time.monotonic())       # past the lapse a start is
        return guard

    def test_a_lapse_read_in_the_sweeps_transaction_is_swept_by_it(self):
        guard = self._guard()
        started = time.monotonic()
        guard.lapse(since=started)
        self.assertFalse(guard.may_beat(0))
        guard.swept(started)
        self.assertTrue(guard.may_beat(0))

    def test_a_lapse_noticed_after_the_sweep_began_waits_for_the_next(self):
        guard = self._guard()
        started = time.monotonic()
        time.sleep(0.001)
        guard.lapse()                       # the heartbeat's, meanwhile
        guard.lapse(since=started)          # does not move it back
        guard.swept(started)
        self.assertFalse(guard.may_beat(0))
        guard.swept(time.monotonic())
        self.assertTrue(guard.may_beat(0))
