import datetime

import testtools

from nova.compute import host_status as hs
from nova.servicegroup import api as sg

NOW = datetime.datetime(2026, 11, 29, 12, 0, 0, 500000)


def service(forced_down=False, disabled=False, last_seen_up=None, created_at=NOW):
    return {'forced_down': forced_down, 'disabled': disabled,
            'last_seen_up': last_seen_up, 'created_at': created_at}


class HostStatusMappingTest(testtools.TestCase):

    def test_every_precedence_case(self):
        cases = [
            # forced_down, disabled, up -> status
            (True, True, True, hs.DOWN),
            (True, True, False, hs.DOWN),
            (True, False, True, hs.DOWN),
            (True, False, False, hs.DOWN),
            (False, True, True, hs.MAINTENANCE),
            (False, True, False, hs.MAINTENANCE),
            (False, False, True, hs.UP),
            (False, False, False, hs.UNKNOWN),
        ]
        for forced_down, disabled, up, expected in cases:
            self.assertEqual(expected, hs.host_status(
                service(forced_down=forced_down, disabled=disabled), up),
                (forced_down, disabled, up))

    def test_no_service_row_is_empty(self):
        self.assertEqual('', hs.host_status(None, True))
        self.assertEqual('', hs.host_status(None, False))


class IsUpTest(testtools.TestCase):
    DOWN_TIME = 60

    def is_up(self, **kwargs):
        return sg.is_up(service(**kwargs), NOW, self.DOWN_TIME)

    def ago(self, seconds):
        return NOW - datetime.timedelta(seconds=seconds)

    def test_fresh_heartbeat_is_up(self):
        self.assertTrue(self.is_up(last_seen_up=self.ago(1)))

    def test_heartbeat_just_inside_and_outside_the_window(self):
        self.assertTrue(self.is_up(last_seen_up=self.ago(self.DOWN_TIME - 0.3)))
        self.assertTrue(self.is_up(last_seen_up=self.ago(self.DOWN_TIME)))
        self.assertFalse(self.is_up(last_seen_up=self.ago(self.DOWN_TIME + 0.3)))

    def test_stale_heartbeat_is_down(self):
        self.assertFalse(self.is_up(last_seen_up=self.ago(7200)))

    def test_forced_down_is_down_even_when_fresh(self):
        self.assertFalse(self.is_up(forced_down=True, last_seen_up=self.ago(0)))

    def test_never_reported_counts_from_creation(self):
        self.assertTrue(self.is_up(last_seen_up=None, created_at=self.ago(5)))
        self.assertFalse(self.is_up(last_seen_up=None, created_at=self.ago(61)))

    def test_heartbeat_far_in_the_future_is_not_trusted(self):
        self.assertTrue(self.is_up(last_seen_up=self.ago(-5)))
        self.assertFalse(self.is_up(last_seen_up=self.ago(-3600)))

    def test_only_the_database_time_matters(self):
        # same row, same DB time -> same answer whatever the local clock says
        row = service(last_seen_up=self.ago(30))
        self.assertTrue(sg.is_up(row, NOW, self.DOWN_TIME))
        self.assertFalse(sg.is_up(row, NOW + datetime.timedelta(minutes=5), self.DOWN_TIME))
