"""Membership on Redis: one key per host whose TTL is the membership.

A heartbeat is one EVALSHA of BEAT: it SETs the host's key to Redis's own
TIME with EX service_down_time, so it also re-creates a membership that
expired (a frozen compute that resumes) or that a restart lost, at the cost
of that one command. It also marks, NX, when Redis first saw a heartbeat
(SINCE): a Redis that restarted empty has a young SINCE, and a host without
a key is then not known to be down until every live host has had a chance
to beat again (a flush or a restart without persistence reads UNKNOWN for
one report_interval, never DOWN).

A read is one round trip however many hosts: a pipeline of MGET of their
keys (and SINCE) and TIME. Redis expires keys on its clock, so an answer
never depends on the API host's clock.
"""
import datetime
import threading

import redis
from redis import backoff
from redis import retry as redis_retry
from redis import sentinel as redis_sentinel

from nova import exception

PREFIX = 'nova:liveness:'
SINCE = PREFIX + 'since'
CHUNK = 1000        # keys per MGET: one pipeline, several commands

BEAT = """
local t = redis.call('TIME')
local now = t[1] .. '.' .. string.format('%06d', tonumber(t[2]))
local before = redis.call('SET', KEYS[1], now, 'EX', ARGV[1], 'GET')
redis.call('SET', KEYS[2], now, 'NX')
if before then return 0 end
return 1
"""


def key(host):
    return PREFIX + 'host:' + host


_clients = {}
_clients_lock = threading.Lock()


def client(backend):
    """One redis-py client per process and backend (its pool is
    thread-safe); it fails a request after backend.timeout instead of
    retrying: the caller decides what a failure means."""
    with _clients_lock:
        if backend not in _clients:
            _clients[backend] = _new_client(backend)
        return _clients[backend]


def _new_client(backend):
    options = dict(socket_timeout=backend.timeout, socket_connect_timeout=backend.timeout,
                   password=backend.password, db=backend.db,
                   retry=redis_retry.Retry(backoff.NoBackoff(), 0),
                   health_check_interval=0, decode_responses=True)
    if backend.sentinel:
        # asks the Sentinels for the primary at every new connection, so a
        # failover costs the requests that were on the old one
        sentinels = redis_sentinel.Sentinel(
            list(backend.endpoints), socket_timeout=backend.timeout,
            sentinel_kwargs={'socket_timeout': backend.timeout,
                             'socket_connect_timeout': backend.timeout})
        return sentinels.master_for(backend.sentinel, **options)
    host, port = backend.endpoints[0]
    return redis.Redis(host=host, port=port, ssl=backend.tls, **options)


class Membership:
    """One compute's heartbeat."""

    def __init__(self, backend, host):
        self.backend = backend
        self.host = host
        self._beat = client(backend).register_script(BEAT)

    def beat(self):
        """One EVALSHA; True when the key had to be created (joined)."""
        return self._beat(keys=[key(self.host), SINCE],
                          args=[self.backend.membership_timeout]) == 1


class Members:
    """The API's reads."""

    def __init__(self, backend, report_interval):
        self.backend = backend
        self.report_interval = report_interval

    def up(self, hosts):
        """The hosts among ``hosts`` whose key Redis holds; raises
        ServiceGroupUnavailable."""
        return set(self._beats(hosts))

    def heartbeats(self, hosts):
        """{host: its last heartbeat (UTC, on Redis's clock)} of the hosts
        among ``hosts`` that Redis holds; raises ServiceGroupUnavailable."""
        return {host: _utc(beat) for host, beat in self._beats(hosts).items()}

    def _beats(self, hosts):
        """{host: Redis's TIME of its last heartbeat, as stored}."""
        hosts = list(hosts)
        try:
            pipe = client(self.backend).pipeline(transaction=False)
            for start in range(0, max(len(hosts), 1), CHUNK):
                pipe.mget([SINCE] + [key(host) for host in hosts[start:start + CHUNK]])
            pipe.time()
            *values, (seconds, micros) = pipe.execute()
        except redis.RedisError as exc:
            raise exception.ServiceGroupUnavailable(
                'liveness backend %s: %s' % (self.backend, exc or type(exc).__name__)) from exc
        since = values[0][0]
        beats = [beat for chunk in values for beat in chunk[1:]]
        now = seconds + micros / 1e6
        held = {host: beat for host, beat in zip(hosts, beats) if beat is not None}
        if since is None or now - float(since) < self.report_interval + self.backend.timeout:
            if len(held) < len(hosts):
                # the missing hosts are unknown; those it holds are up
                raise exception.ServiceGroupUnavailable(
                    'liveness backend %s restarted empty less than a heartbeat ago'
                    % self.backend, hosts_up=held)
        return held


def _utc(text):
    return datetime.datetime.fromtimestamp(float(text), datetime.timezone.utc).replace(
        tzinfo=None)
