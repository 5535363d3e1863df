"""Metrics of the host-status watcher.

The active watcher hands every look it stored (the compute service rows
and the servicegroup's answer) to WatcherMetrics; the states are exported
from that look, with no polling. What only the database knows (servers
per host, maintenance windows, undelivered events) is read when Prometheus
scrapes. A standby exports nova_host_status_watcher_active 0 and no host
series: only the active watcher speaks for the hosts.

Statuses are state sets (every status of a host, 1 for its current one);
``NONE`` stands for Nova's empty host_status (no compute service).
"""
import calendar
import collections
import logging

import prometheus_client
from oslo_db import exception as db_exc
from prometheus_client.core import GaugeMetricFamily

from nova.compute import host_status as hs
from nova.db import host_maintenance
from nova.db import host_status_metrics as store

LOG = logging.getLogger(__name__)

NONE = 'NONE'
STATUSES = (hs.UP, hs.DOWN, hs.MAINTENANCE, hs.UNKNOWN)
HEALTH_STATUSES = STATUSES + (hs.NEEDS_MAINTENANCE,)
SERVER_STATUSES = STATUSES + (NONE,)
FENCE_BUCKETS = (0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)
# transition (stored event) → handed to the notifier
DELIVERY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

HELP = {
    'nova_host_status_watcher_active':
        '1 while this watcher holds the lease and speaks for the hosts, 0 on a standby.',
    'nova_liveness_backend_up':
        '1 while the servicegroup answers the active watcher, 0 during an outage '
        '(every live host then reads UNKNOWN).',
    'nova_host_status':
        "A host's host_status as Nova's servers show it: 1 for the current status.",
    'nova_host_health_status':
        "A host's status in the host-health view (liveness beats an operator's "
        'disable; NEEDS_MAINTENANCE for a window ahead): 1 for the current status.',
    'nova_host_last_heartbeat_timestamp_seconds':
        "Unix time of the host's last heartbeat on the liveness backend's clock "
        '(the database driver only).',
    'nova_servers':
        'Live servers by the host_status of their host (NONE: no compute service).',
    'nova_host_status_events_undelivered':
        'Stored host status transitions not yet handed to the notifier.',
    'nova_host_maintenance_windows':
        'Maintenance windows by state (finished ones until the retention prunes them).',
    'nova_host_status_transitions':
        'Host status changes the active watcher stored, by old and new status.',
    'nova_fencing_brake_engaged':
        '1 while the brake on mass fencing holds every fence, force-down and HA '
        'notification back (too many hosts UNKNOWN, or the liveness backend away).',
    'nova_fence_failing':
        '1 while the last fence of a host that still reads UNKNOWN failed: it is not '
        'forced down and its servers are not recovered.',
    'nova_fences':
        'Fences the watcher ran to their end, by host and result (confirmed or failed).',
    'nova_fence_seconds':
        'Seconds from running the fence agent to its confirmation of Off (or failure).',
    'nova_host_status_event_delivery_seconds':
        'Seconds from a transition being stored to its notifications being sent '
        "(the database's clock).",
}

_Look = collections.namedtuple('_Look', 'rows alive backend_up')


def _statuses(rows, alive):
    return {row['host']: hs.host_status(row, row['host'] in alive) for row in rows}


def _timestamp(value):
    return calendar.timegm(value.utctimetuple()) + value.microsecond / 1e6


class WatcherMetrics:
    """The watcher's metrics, registered on ``registry`` (None: kept, not
    served)."""

    def __init__(self, registry=prometheus_client.REGISTRY, heartbeats_in_database=True):
        self.heartbeats_in_database = heartbeats_in_database
        self.transitions = prometheus_client.Counter(
            'nova_host_status_transitions', HELP['nova_host_status_transitions'],
            ('from', 'to'), registry=registry)
        self.delivery = prometheus_client.Histogram(
            'nova_host_status_event_delivery_seconds',
            HELP['nova_host_status_event_delivery_seconds'], buckets=DELIVERY_BUCKETS,
            registry=registry)
        self.fences = prometheus_client.Counter(
            'nova_fences', HELP['nova_fences'], ('host', 'result'), registry=registry)
        self.fence_seconds = prometheus_client.Histogram(
            'nova_fence_seconds', HELP['nova_fence_seconds'], buckets=FENCE_BUCKETS,
            registry=registry)
        self._brake = None          # None: fencing off
        self._failing = set()       # hosts whose last fence failed
        self._look = None           # None: standing by
        self._statuses = {}         # {host: status} of the last stored look
        if registry is not None:
            registry.register(self)

    # -------------------------------------------------------- the watcher

    def activated(self):
        """The watcher took the lease: count from what the watchers stored."""
        self._statuses = store.stored_statuses()
        self._look = _Look((), frozenset(), None)

    def standby(self):
        self._look = None

    def looked(self, rows, alive):
        """A look was stored: ``rows`` the compute services, ``alive`` the
        hosts the servicegroup called alive."""
        statuses = _statuses(rows, alive)
        for host in statuses.keys() | self._statuses.keys():
            old, new = self._statuses.get(host, NONE), statuses.get(host, NONE)
            if old != new:
                self.transitions.labels(old, new).inc()
        self._statuses = statuses
        self._look = _Look(tuple(rows), frozenset(alive), True)

    def liveness_unavailable(self, rows):
        """The servicegroup did not answer: every live host is unknown,
        as the API shows it; no transition is stored for it."""
        self._look = _Look(tuple(rows), frozenset(), False)

    def brake(self, engaged):
        self._brake = engaged

    def fenced(self, host, result, seconds):
        self.fences.labels(host, result).inc()
        self.fence_seconds.observe(seconds)

    def fence_failing(self, host, failing):
        if failing:
            self._failing.add(host)
        else:
            self._failing.discard(host)

    def delivered(self, seconds):
        self.delivery.observe(max(0.0, seconds))

    # ------------------------------------------------------------- scrape

    def describe(self):
        return []      # the families depend on the state: no check at register time

    def collect(self):
        look = self._look
        yield self._gauge('nova_host_status_watcher_active', [], [((), float(look is not None))])
        if look is None:
            return
        if look.backend_up is not None:
            yield self._gauge('nova_liveness_backend_up', [],
                              [((), float(look.backend_up))])
        statuses = _statuses(look.rows, look.alive)
        if self._brake is not None:
            yield self._gauge('nova_fencing_brake_engaged', [], [((), float(self._brake))])
            failing = set(self._failing)
            yield self._gauge('nova_fence_failing', ['host'], [
                ((host,), float(host in failing)) for host in sorted(statuses)])
        yield self._state_set('nova_host_status', 'status', statuses, STATUSES)
        if self.heartbeats_in_database:
            yield self._gauge('nova_host_last_heartbeat_timestamp_seconds', ['host'], [
                ((row['host'],), _timestamp(row['last_seen_up']))
                for row in look.rows if row['last_seen_up'] is not None])
        try:
            counts = store.counts()
        except db_exc.DBError as exc:
            LOG.warning('metrics read from the database failed: %s', exc)
            return
        health = {row['host']: hs.health_status(
                      row, row['host'] in look.alive,
                      row['host'] in counts.hosts_with_open_window or None)
                  for row in look.rows}
        yield self._state_set('nova_host_health_status', 'status', health, HEALTH_STATUSES)
        servers = dict.fromkeys(SERVER_STATUSES, 0)
        for host, number in counts.servers_by_host.items():
            servers[statuses.get(host) or NONE] += number
        yield self._gauge('nova_servers', ['host_status'],
                          [((status,), n) for status, n in servers.items()])
        yield self._gauge('nova_host_status_events_undelivered', [],
                          [((), counts.undelivered)])
        yield self._gauge('nova_host_maintenance_windows', ['state'], [
            ((state,), counts.windows_by_state.get(state, 0)) for state in host_maintenance.STATES])

    @staticmethod
    def _gauge(name, labels, samples):
        family = GaugeMetricFamily(name, HELP[name], labels=labels)
        for values, value in samples:
            family.add_metric(values, value)
        return family

    def _state_set(self, name, label, current, statuses):
        return self._gauge(name, ['host', label], [
            ((host, status), float(status == now))
            for host, now in sorted(current.items()) for status in statuses])
