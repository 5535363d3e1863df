import threading

import testtools
from unittest import mock

from nova.compute import manager


class PollLoopTest(testtools.TestCase):

    def test_an_unexpected_error_does_not_end_the_loop(self):
        compute = manager.ComputeManager('h1')
        calls = []

        def poll_once():
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError('driver exploded')
            compute.stop()

        with mock.patch.object(compute, 'poll_once', side_effect=poll_once):
            runner = threading.Thread(target=compute.run)
            runner.start()
            runner.join(10)
        self.assertFalse(runner.is_alive())
        self.assertEqual(2, len(calls))
