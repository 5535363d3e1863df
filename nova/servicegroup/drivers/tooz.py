"""Liveness in a tooz group on Redis or etcd: heartbeats never touch SQL.

Every nova-compute is a member of one group, GROUP, under its host name,
and the backend expires a member service_down_time after its last
heartbeat, on the backend's own clock (a Redis key's TTL, an etcd lease).
tooz neither re-adds a member that expired (a frozen compute that resumes)
nor recreates a group lost in a backend restart, so every heartbeat also
checks the membership and joins again when it is gone.

etcd renews every lease when it restarts or elects a leader, so a compute
that died just before would stay a member for another whole timeout. Each
member therefore keeps, as its tooz capabilities, the raft term it last
heartbeated in, and only members of the current term count as up. Redis
stores absolute expiry times (and, unpersisted, nothing across a restart):
its epoch is always None.

The API reads the whole group once per call (hosts_up) on one reader per
process and backend, whatever the number of ToozDriver objects, and waits at
most the backend timeout (nova.conf.liveness_backend) from the read's
start. Calls made while a read is in flight (gthread workers) share it; once
that read has outlived the timeout, further calls fail at once instead of
queueing behind it.
"""
import concurrent.futures
import logging
import threading
import time
import uuid

import nova.conf
from nova.db import api as db
from nova import exception
from nova.conf import liveness_backend

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

GROUP = b'nova-compute'


def _coordination():
    # imported on first use: every program imports this module, and tooz
    # (through futurist) drags in eventlet and its warning on stderr
    from tooz import coordination
    return coordination


def epoch(coordinator, backend):
    """The backend's lease epoch: etcd's raft term, None on Redis."""
    if backend.kind != 'etcd':
        return None
    # tooz has no call for it; the etcd3gw client it exposes does
    return int(coordinator.client.status()['header']['raft_term'])


def _started(backend, member_id):
    coordinator = _coordination().get_coordinator(backend.url, member_id)
    coordinator.start(start_heart=False)
    return coordinator


class _Membership:
    """One compute's membership in GROUP, repaired at every heartbeat."""

    def __init__(self, backend, host):
        self.backend = backend
        self.member_id = host.encode()
        self._coordinator = None

    def beat(self):
        """Heartbeat, then make sure this host is a member of the current
        epoch; True when it had to join."""
        if self._coordinator is None:
            self._coordinator = _started(self.backend, self.member_id)
        coordinator = self._coordinator
        coordinator.heartbeat()
        wanted = {'epoch': epoch(coordinator, self.backend)}
        timeout = self.backend.timeout
        coordination = _coordination()
        try:
            have = coordinator.get_member_capabilities(GROUP, self.member_id).get(timeout)
            if have != wanted:
                coordinator.update_capabilities(GROUP, wanted).get(timeout)
            return False
        except (coordination.MemberNotJoined, coordination.GroupNotCreated):
            pass
        try:
            coordinator.create_group(GROUP).get(timeout)
        except coordination.GroupAlreadyExist:
            pass
        try:
            coordinator.join_group(GROUP, wanted).get(timeout)
        except coordination.MemberAlreadyExist:
            # another process of this host joined in between
            coordinator.update_capabilities(GROUP, wanted).get(timeout)
        return True


class _Reader:
    """Reads GROUP for the API, one read at a time, each bounded."""

    def __init__(self, backend):
        self.backend = backend
        self._member_id = b'reader.' + uuid.uuid4().hex.encode()
        self._coordinator = None
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix='liveness-read')
        self._lock = threading.Lock()
        self._pending = None

    def members(self):
        """The member ids of the current epoch; raises
        ServiceGroupUnavailable."""
        with self._lock:
            if self._pending is None or self._pending[0].done():
                self._pending = (self._pool.submit(self._read),
                                 time.monotonic() + self.backend.timeout)
            future, deadline = self._pending
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise exception.ServiceGroupUnavailable(
                'the liveness read from %s in flight has not returned within %g s'
                % (self.backend, self.backend.timeout))
        try:
            return future.result(timeout=remaining)
        except concurrent.futures.TimeoutError:
            raise exception.ServiceGroupUnavailable(
                'liveness backend %s did not answer within %g s'
                % (self.backend, self.backend.timeout)) from None
        except Exception as exc:  # whatever the backend's client raises
            raise exception.ServiceGroupUnavailable(
                'liveness backend %s: %s' % (self.backend, exc or type(exc).__name__)) from exc

    def _read(self):
        if self._coordinator is None:
            self._coordinator = _started(self.backend, self._member_id)
        coordinator = self._coordinator
        try:
            if self.backend.kind != 'etcd':
                # no epochs: the ids alone (no capabilities to decode)
                return coordinator.get_members(GROUP).get()
            members = coordinator.get_members_with_capabilities(GROUP).get()
        except _coordination().GroupNotCreated:
            return set()   # no compute has joined since the backend started
        # read after the members: a restart in between makes them all
        # stale, never up
        current = epoch(coordinator, self.backend)
        return {member for member, capabilities in members.items()
                if isinstance(capabilities, dict) and capabilities.get('epoch') == current}


_readers = {}
_readers_lock = threading.Lock()


def _reader(backend):
    # one per process and backend: servicegroup.API() is made per call
    with _readers_lock:
        if backend not in _readers:
            _readers[backend] = _Reader(backend)
        return _readers[backend]


class ToozDriver:
    def __init__(self):
        self.backend = liveness_backend.parse(CONF.servicegroup.backend_url, CONF.service_down_time)

    def hosts_up(self, services):
        """The hosts among ``services`` ({host: service row}) that are
        members of the current epoch and not forced down."""
        members = _reader(self.backend).members()
        return {host for host, service in services.items()
                if not service['forced_down'] and host.encode() in members}

    def all_hosts_up(self):
        """Every host that is a member of the current epoch (the host_status
        filter applies forced down and disabled itself)."""
        return {member.decode() for member in _reader(self.backend).members()}

    def heartbeat_loop(self, service, interval, stop_event):
        membership = _Membership(self.backend, service['host'])
        failing = False
        next_beat = time.monotonic()
        while not stop_event.is_set():
            if CONF.servicegroup.tooz_also_db_heartbeat:
                self._db_heartbeat(service)
            try:
                if membership.beat():
                    LOG.info('%s joined the liveness group on %s', service['host'], self.backend)
                if failing:
                    LOG.info('heartbeats reach %s again', self.backend)
                failing = False
            except Exception as exc:  # the backend may be away; keep trying
                if not failing:
                    LOG.error('heartbeat to %s failed (retrying every %s s): %s',
                              self.backend, interval, exc)
                failing = True
            # a fixed rate; a late beat (slow backend) is not made up twice
            next_beat = max(next_beat + interval, time.monotonic())
            stop_event.wait(next_beat - time.monotonic())

    @staticmethod
    def _db_heartbeat(service):
        # while switching drivers only (tooz_also_db_heartbeat)
        try:
            db.service_heartbeat(service['id'])
        except Exception as exc:  # the database may be away; the backend is what counts
            LOG.warning('database heartbeat failed: %s', exc)
