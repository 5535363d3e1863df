"""A virt driver that pretends: spawning takes a moment, power changes are
instant. Its guests (uuid -> power state) are what the hypervisor runs;
with a ``state_file`` they outlive the process, as a real hypervisor's
guests outlive a nova-compute restart, and anyone can read them there
(the split-brain tests do).

Its disk can fill: while a file ``<guests file>.disk-full`` is beside its
guests (fill_disk), a spawn fails as a real one would on a full disk,
leaving half a guest behind.
"""
import errno
import json
import os
import threading

# Nova's power states (nova/compute/power_state.py) that this driver uses
POWER_NOSTATE = 0
POWER_RUNNING = 1
POWER_SHUTDOWN = 4
DISK_FULL_SUFFIX = '.disk-full'


def fill_disk(state_file, full=True):
    """Fill (or free) the disk of the simulated host whose guests are in
    ``state_file``."""
    marker = state_file + DISK_FULL_SUFFIX
    if full:
        with open(marker, 'w'):
            pass
    elif os.path.exists(marker):
        os.remove(marker)


class FakeDriver:
    def __init__(self, spawn_seconds, state_file=None):
        self.spawn_seconds = spawn_seconds
        self.state_file = state_file
        self._lock = threading.Lock()
        self.guests = self._load()

    def _load(self):
        if not self.state_file or not os.path.exists(self.state_file):
            return {}
        with open(self.state_file) as f:
            return json.load(f)

    def _save(self):
        if not self.state_file:
            return
        # its own temporary file: two processes serving one host (an
        # overlapping restart) must not move each other's away
        temporary = '%s.%d.tmp' % (self.state_file, os.getpid())
        with open(temporary, 'w') as f:
            json.dump(self.guests, f, sort_keys=True)
        os.replace(temporary, self.state_file)    # readers never see half a file

    def _set(self, uuid, power_state):
        with self._lock:
            self.guests[uuid] = power_state
            self._save()
        return power_state

    def spawn(self, uuid, stop_event):
        stop_event.wait(self.spawn_seconds)
        if self.state_file and os.path.exists(self.state_file + DISK_FULL_SUFFIX):
            self._set(uuid, POWER_NOSTATE)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self._set(uuid, POWER_RUNNING)

    def power_off(self, uuid):
        return self._set(uuid, POWER_SHUTDOWN)

    def power_on(self, uuid):
        return self._set(uuid, POWER_RUNNING)

    def reboot(self, uuid):
        return self._set(uuid, POWER_RUNNING)

    def destroy(self, uuid):
        """True when there was a guest to destroy."""
        with self._lock:
            existed = self.guests.pop(uuid, None) is not None
            if existed:
                self._save()
        return existed

    def power_states(self):
        """{uuid: power state} of every guest."""
        with self._lock:
            return dict(self.guests)

    def uuids(self):
        with self._lock:
            return list(self.guests)

    def has(self, uuid):
        with self._lock:
            return uuid in self.guests
