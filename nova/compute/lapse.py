"""What a compute's heartbeat promises: nothing its hypervisor runs is
deleted or lives on another host.

While a compute is not seen up (frozen, cut off from the database or the
liveness backend, forced down), the API deletes its servers locally and
evacuates them away without it. So after such a lapse the compute must
look at its guests again (the poll's sweep) before it beats: a beat
waits for a sweep that began after the lapse was noticed. The heartbeat
thread notices a gap since its last beat; the poll notices its service
forced down.
"""
import threading
import time


class LapseGuard:

    def __init__(self, max_gap):
        """``max_gap``: seconds without a successful beat after which the
        compute may have been seen down (keep it below service_down_time)."""
        self.max_gap = max_gap
        self._changed = threading.Condition()
        self._last_beat = None
        self._lapsed_at = time.monotonic()      # a start is a lapse
        self._swept_at = None
        self._gap_after = None
        self._back_at = None

    def lapse(self, since=None):
        """The compute may have been seen down from now on; or from
        ``since``, an earlier time.monotonic() (the poll's, which read that
        it was in a transaction begun after then), unless a later lapse is
        already known."""
        with self._changed:
            if since is None:
                self._lapsed_at = time.monotonic()
            else:
                self._lapsed_at = max(self._lapsed_at, since)

    def _lapse_pending(self):
        return self._swept_at is None or self._swept_at < self._lapsed_at

    def sweep_needed(self):
        """After a lapse; and once more after the first beat that follows
        it: until that beat landed the API could still delete locally."""
        with self._changed:
            return self._lapse_pending() or (
                self._back_at is not None
                and (self._swept_at is None or self._swept_at < self._back_at))

    def swept(self, started_at):
        """A sweep that began at ``started_at`` (time.monotonic()) ended."""
        with self._changed:
            if self._swept_at is None or started_at > self._swept_at:
                self._swept_at = started_at
            self._changed.notify_all()

    def may_beat(self, timeout):
        """True when the next beat keeps the promise; after a lapse, waits up
        to ``timeout`` seconds for the sweep."""
        now = time.monotonic()
        with self._changed:
            gap = self._last_beat is not None and now - self._last_beat > self.max_gap
            # one lapse per gap: the sweep it waits for is not pushed later
            if gap and self._gap_after != self._last_beat:
                self._gap_after = self._last_beat
                self._lapsed_at = now
            return self._changed.wait_for(lambda: not self._lapse_pending(), timeout)

    def beaten(self):
        """A beat landed. The first after a lapse, or one that took so long
        to land that the host may have been seen down before it did (a
        backend or database that was slow to take it), asks for a sweep
        after it: until it landed the API could delete locally."""
        with self._changed:
            now = time.monotonic()
            if (self._last_beat is None or self._gap_after == self._last_beat
                    or now - self._last_beat > self.max_gap):
                self._back_at = now
            self._last_beat = now
