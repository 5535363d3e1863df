"""Long polls in an API worker: waiting for the next stored event without a
query per waiter, and a cap on how many requests wait at once.

One thread per worker process asks the database for the newest event id
every POLL_INTERVAL while anybody waits (and stops when nobody does); the
waiters sleep on a condition it signals. So a worker with N waiting
requests runs one small indexed query per interval, not N.
"""
import collections
import logging
import threading
import time

from oslo_db import exception as db_exc

LOG = logging.getLogger(__name__)
POLL_INTERVAL = 0.2


class Bell:
    def __init__(self, latest_id, interval=POLL_INTERVAL):
        self._latest_id = latest_id
        self._interval = interval
        self._cond = threading.Condition()
        self._waiters = 0
        self._seen = None
        self._running = False

    def wait_past(self, event_id, timeout):
        """Block until an event with an id above ``event_id`` is stored, or
        ``timeout`` seconds passed; True in the first case."""
        deadline = time.monotonic() + timeout
        with self._cond:
            self._waiters += 1
            if not self._running:
                self._running = True
                threading.Thread(target=self._poll, name='long-poll', daemon=True).start()
            try:
                while self._seen is None or self._seen <= event_id:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return False
                    self._cond.wait(remaining)
                return True
            finally:
                self._waiters -= 1

    def _poll(self):
        while True:
            with self._cond:
                if not self._waiters:
                    # a later waiter must not trust an id read long ago
                    self._running = False
                    self._seen = None
                    return
            try:
                latest = self._latest_id()
            except db_exc.DBError as exc:
                LOG.warning('long poll cannot read the newest event: %s', exc)
                latest = None
            with self._cond:
                if latest is not None and latest != self._seen:
                    self._seen = latest
                    self._cond.notify_all()
            time.sleep(self._interval)


class Slots:
    """At most ``per_key`` holders per key and ``total`` in all."""

    def __init__(self, per_key, total):
        self.per_key = per_key
        self.total = total
        self._lock = threading.Lock()
        self._held = collections.Counter()

    def acquire(self, key):
        with self._lock:
            if self._held[key] >= self.per_key or sum(self._held.values()) >= self.total:
                return False
            self._held[key] += 1
            return True

    def release(self, key):
        with self._lock:
            self._held[key] -= 1
            if not self._held[key]:
                del self._held[key]
