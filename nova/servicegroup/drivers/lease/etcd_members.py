"""Membership on etcd: one key per host, bound to a lease of that host.

A heartbeat is one lease keepalive. Only when etcd no longer knows the
lease (it expired: a frozen compute; or etcd lost it) does the compute
grant a new one and put its key again: a re-join costs two requests and
reads nothing. etcd expires the lease on its own clock, which deletes the
key.

etcd renews every lease when a member becomes leader (a restart, an
election), so a compute that died just before would stay a member for one
more whole timeout. Each key therefore holds the raft term of the
compute's last put, and a compute puts again when its keepalive's reply
comes from a newer term (once per election). Readers count a member of an
older term as up never: UNKNOWN while the live ones may still be
re-confirming (report_interval and one request), down after.

Readers keep a cache per process (Members): a range read of every key,
then a watch from the revision after it. A lease's expiry arrives as a
DELETE event; a watch that breaks or is compacted away lists again. The
cache vouches for itself only while the watch is seen to deliver: every
third of the bound (service_down_time / 2) the reader puts TICK, a key
inside the watched range, and the event of that put coming back through
the watch confirms the cache as of the moment the put was sent. Past the
bound without a confirmation, reads raise ServiceGroupUnavailable.

etcd3gw's Watcher drops the stream's end and the compaction notice, so the
cache reads the watch stream itself, through etcd3gw's session.
"""
import concurrent.futures
import datetime
import json
import logging
import threading
import time
import uuid

from nova import exception
from nova.servicegroup.drivers.lease import etcd_client

LOG = logging.getLogger(__name__)

PREFIX = 'nova/liveness/'
HOSTS = PREFIX + 'hosts/'
TICK = PREFIX + 'tick'


def key(host):
    return HOSTS + host


# the requests of a heartbeat, as (gateway path, JSON body)

def grant_request(ttl):
    return '/lease/grant', {'TTL': ttl, 'ID': 0}


def keepalive_request(lease):
    return '/lease/keepalive', {'ID': lease}


def put_request(member_key, lease, term):
    """The member's key, bound to ``lease``, holding the raft ``term``."""
    return '/kv/put', {'key': etcd_client.b64(member_key),
                       'value': etcd_client.b64(json.dumps({'term': term})), 'lease': lease}


def kept_alive(reply):
    """The raft term of a keepalive's reply, or None when etcd no longer
    knows the lease."""
    result = reply.get('result', {})
    return int(result['header']['raft_term']) if int(result.get('TTL', 0)) > 0 else None


_clients = {}
_members = {}
_lock = threading.RLock()


def client(backend):
    with _lock:
        if backend not in _clients:
            _clients[backend] = etcd_client.Client(backend)
        return _clients[backend]


def members(backend, report_interval):
    """The cache of this process for ``backend``."""
    with _lock:
        if backend not in _members:
            _members[backend] = Members(backend, report_interval)
        return _members[backend]


class Membership:
    """One compute's heartbeat."""

    def __init__(self, backend, host):
        self.backend = backend
        self.key = key(host)
        self._client = client(backend)
        self.lease = None
        self.term = None

    def beat(self):
        """One keepalive (and a put after an election); a grant and a put
        when the lease is gone. True when it had to join."""
        if self.lease is not None:
            term = kept_alive(self._client.post(*keepalive_request(self.lease)))
            if term is not None:
                if term != self.term:
                    self._put(term)
                return False
        granted = self._client.post(*grant_request(self.backend.membership_timeout))
        self.lease = int(granted['ID'])
        self._put(int(granted['header']['raft_term']))
        return True

    def _put(self, term):
        self._client.post(*put_request(self.key, self.lease, term))
        self.term = term


class Members:
    """The API's reads, from the watched cache."""

    def __init__(self, backend, report_interval):
        self.backend = backend
        self.bound = backend.membership_timeout / 2
        # a live compute re-puts at its first keepalive in the new term
        self.grace = min(report_interval + min(backend.timeout, report_interval),
                         backend.membership_timeout)
        self._client = client(backend)
        self._id = uuid.uuid4().hex
        self._lock = threading.Lock()
        self._hosts = {}            # host -> (term, lease)
        self._term = 0
        self._term_since = time.monotonic()
        self._confirmed = None      # monotonic time the cache was last vouched for
        self._pending = []          # (revision, monotonic sent) of ticks in flight
        self._last_read = time.monotonic()
        self._running = False
        self._confirmed_event = threading.Condition(self._lock)
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=8, thread_name_prefix='liveness-ttl')

    # ------------------------------------------------------------ reads

    def up(self, hosts):
        """The hosts among ``hosts`` that are members of the current term;
        raises ServiceGroupUnavailable."""
        with self._vouched():
            return self._up(hosts)

    def all_up(self):
        with self._vouched():
            return self._up(self._hosts)

    def heartbeats(self, hosts):
        """{host: its last keepalive (UTC)} of the hosts among ``hosts`` that
        are up: now less the time etcd's lease has run since its last
        renewal (etcd keeps whole seconds), one request per host."""
        with self._vouched():
            leases = {host: self._hosts[host][1] for host in self._up(hosts)}
        now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        futures = {host: self._pool.submit(self._client.post, '/lease/timetolive',
                                           {'ID': lease}) for host, lease in leases.items()}
        beats = {}
        for host, future in futures.items():
            try:
                reply = future.result(timeout=self.backend.timeout)
                ran = int(reply['grantedTTL']) - int(reply.get('TTL', 0))
            except Exception:   # expired meanwhile, or etcd away: no time to show
                continue
            beats[host] = now - datetime.timedelta(seconds=max(ran, 0))
        return beats

    def _up(self, hosts):
        """The members among ``hosts``; while members of an older term may
        still re-confirm, raises ServiceGroupUnavailable naming those of the
        current term as up."""
        answers = {host: self._is_up(host) for host in hosts}
        up = {host for host, alive in answers.items() if alive}
        if None in answers.values():
            raise exception.ServiceGroupUnavailable(
                'liveness backend %s has a new raft term; members are re-confirming'
                % self.backend, hosts_up=up)
        return up

    def _is_up(self, host):
        """True, False, or None while an older term's member may re-confirm."""
        member = self._hosts.get(host)
        if member is None:
            return False
        if member[0] >= self._term:
            return True
        if time.monotonic() - self._term_since < self.grace:
            return None
        return False

    def _vouched(self):
        """The lock, held, once the cache is confirmed recent enough."""
        self._ensure_running()
        self._lock.acquire()
        try:
            self._last_read = time.monotonic()
            if self._confirmed is None:
                self._confirmed_event.wait(self.backend.timeout)
            if self._confirmed is None or time.monotonic() - self._confirmed > self.bound:
                raise exception.ServiceGroupUnavailable(
                    'liveness backend %s: the watch has not been confirmed for %g s'
                    % (self.backend, self.bound))
        except BaseException:
            self._lock.release()
            raise
        return _Held(self._lock)

    # ------------------------------------------------------- background

    def _ensure_running(self):
        with self._lock:
            if self._running:
                return
            self._running = True
            self._confirmed = None
            self._last_read = time.monotonic()
        for target, name in ((self._watch_forever, 'liveness-watch'),
                             (self._tick_forever, 'liveness-tick')):
            threading.Thread(target=target, name=name, daemon=True).start()

    def _idle(self):
        with self._lock:
            # a process that stopped reading (or a backend gone for good)
            if time.monotonic() - self._last_read > 10 * self.backend.membership_timeout:
                self._running = False
            return not self._running

    def _watch_forever(self):
        failing = False
        while not self._idle():
            try:
                self._list_then_watch()
                failing = False
            except Exception as exc:   # etcd away or hung: list again
                if not failing:
                    LOG.warning('liveness watch on %s lost: %s', self.backend, exc)
                failing = True
                time.sleep(min(0.5, self.bound / 4))

    def _list_then_watch(self):
        sent = time.monotonic()
        reply = self._client.post('/kv/range', {'key': etcd_client.b64(HOSTS),
                                                'range_end': etcd_client.b64(
                                                    etcd_client.range_end(HOSTS))})
        revision = int(reply['header']['revision'])
        with self._lock:
            self._hosts = {}
            for kv in reply.get('kvs', []):
                self._apply_put(kv)
            self._see_term(int(reply['header']['raft_term']))
            # the list is as of its sending, or later
            self._confirm(sent)
            self._pending = [tick for tick in self._pending if tick[0] > revision]
        create = {'create_request': {'key': etcd_client.b64(PREFIX),
                                     'range_end': etcd_client.b64(
                                         etcd_client.range_end(PREFIX)),
                                     'start_revision': revision + 1}}
        response, index = self._client.stream('/watch', create, read_timeout=self.bound)
        try:
            for message in _messages(response):
                result = message.get('result') or {}
                if result.get('canceled') or int(result.get('compact_revision', 0)):
                    LOG.info('liveness watch on %s canceled (%s); listing again',
                             self.backend, result.get('cancel_reason') or 'compacted')
                    return
                with self._lock:
                    for event in result.get('events', ()):
                        self._apply(event)
                if self._idle():
                    return
            raise ConnectionError('the watch stream ended')
        except Exception:
            self._client.failed(index)
            raise
        finally:
            response.close()

    def _apply(self, event):
        kv = event['kv']
        name = etcd_client.unb64(kv['key'])
        if name.startswith(HOSTS):
            if event.get('type') == 'DELETE':
                self._hosts.pop(name[len(HOSTS):], None)
            else:
                self._apply_put(kv)
        revision = int(kv.get('mod_revision', 0))
        confirmed = [sent for tick, sent in self._pending if tick <= revision]
        if confirmed:
            self._confirm(max(confirmed))
            self._pending = [tick for tick in self._pending if tick[0] > revision]

    def _apply_put(self, kv):
        name = etcd_client.unb64(kv['key'])
        if not name.startswith(HOSTS):
            return
        try:
            term = int(json.loads(etcd_client.unb64(kv['value']))['term'])
        except (KeyError, ValueError, TypeError):
            return      # not ours
        self._hosts[name[len(HOSTS):]] = (term, int(kv.get('lease', 0)))
        self._see_term(term)

    def _see_term(self, term):
        if term > self._term:
            self._term = term
            self._term_since = time.monotonic()

    def _confirm(self, sent):
        if self._confirmed is None or sent > self._confirmed:
            self._confirmed = sent
        self._confirmed_event.notify_all()

    def _tick_forever(self):
        every = self.bound / 3
        while not self._idle():
            sent = time.monotonic()
            try:
                reply = self._client.post('/kv/put', {'key': etcd_client.b64(TICK),
                                                      'value': etcd_client.b64(self._id)})
                with self._lock:
                    self._pending.append((int(reply['header']['revision']), sent))
                    self._see_term(int(reply['header']['raft_term']))
            except Exception as exc:    # the watch's confirmations lapse by themselves
                LOG.debug('liveness tick on %s failed: %s', self.backend, exc)
            time.sleep(max(0.0, every - (time.monotonic() - sent)))


class _Held:
    def __init__(self, lock):
        self._lock = lock

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._lock.release()


def _messages(response):
    """The JSON messages of a grpc-gateway stream, one per line."""
    buffer = b''
    for chunk in response.iter_content(chunk_size=None):
        buffer += chunk
        *lines, buffer = buffer.split(b'\n')
        for line in lines:
            if line.strip():
                yield json.loads(line)
