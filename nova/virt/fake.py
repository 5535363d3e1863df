"""A virt driver that pretends: spawning takes a moment, nothing else happens."""
import threading

POWER_RUNNING = 1


class FakeDriver:
    def __init__(self, spawn_seconds):
        self.spawn_seconds = spawn_seconds
        self._lock = threading.Lock()
        self.guests = set()

    def spawn(self, uuid, stop_event):
        stop_event.wait(self.spawn_seconds)
        with self._lock:
            self.guests.add(uuid)
        return POWER_RUNNING

    def destroy(self, uuid):
        with self._lock:
            self.guests.discard(uuid)
