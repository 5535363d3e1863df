"""The host-health precedence DOWN > UNKNOWN > MAINTENANCE >
NEEDS_MAINTENANCE > UP, over every service state, against Nova's legacy
field where the two must agree."""
import itertools

import testtools

from nova.compute import host_status as hs

WINDOW = ('a window row',)


def service(forced_down, disabled, last_seen_up='2030-01-01'):
    return {'forced_down': forced_down, 'disabled': disabled, 'last_seen_up': last_seen_up}


class HealthStatusTest(testtools.TestCase):

    def test_every_state(self):
        expected = {
            # (forced_down, disabled, alive, window) -> status
            (True, False, False, None): 'DOWN', (True, True, True, WINDOW): 'DOWN',
            (False, True, False, None): 'UNKNOWN', (False, True, False, WINDOW): 'UNKNOWN',
            (False, False, False, WINDOW): 'UNKNOWN',
            (False, True, True, None): 'MAINTENANCE', (False, True, True, WINDOW): 'MAINTENANCE',
            (False, False, True, WINDOW): 'NEEDS_MAINTENANCE',
            (False, False, True, None): 'UP',
        }
        for (forced, disabled, alive, window), status in expected.items():
            self.assertEqual(status, hs.health_status(service(forced, disabled), alive, window),
                             (forced, disabled, alive, window))
        self.assertEqual('', hs.health_status(None, False, WINDOW))

    def test_agrees_with_the_legacy_field_except_where_it_hides(self):
        for forced, disabled, alive in itertools.product((False, True), repeat=3):
            row = service(forced, disabled)
            legacy = hs.host_status(row, alive)
            health = hs.health_status(row, alive, None)
            if legacy == 'MAINTENANCE' and not alive:
                self.assertEqual('UNKNOWN', health)     # the blind spot closed
            else:
                self.assertEqual(legacy, health)

    def test_liveness(self):
        self.assertEqual('no-host', hs.liveness(None, False))
        self.assertEqual('up', hs.liveness(service(False, False), True))
        self.assertEqual('stale', hs.liveness(service(False, False), False))
        self.assertEqual('never-reported', hs.liveness(service(False, False, None), False))
        # judged from its creation, as the legacy field: it may be up already
        self.assertEqual('up', hs.liveness(service(False, False, None), True))
