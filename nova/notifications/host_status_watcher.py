"""The host-status watcher: notices every change of every compute service's
state, stores it once, and delivers it at least once.

Several may run; the one holding the lease (nova/db/host_status_events.py)
is active. Every [host_status_watcher] interval it reads the compute
services, asks the servicegroup which are alive, and stores one transition
per service whose state differs from the stored one, in the transaction
that renews its lease. A newly active watcher does exactly the same, so a
failover neither loses a change that is still true nor repeats one already
stored. A separate thread hands stored transitions to the notifier, oldest
first, and marks each delivered only once the notifier returned; what a
dead watcher left undelivered, the next one sends again, with the same id.
A server that an evacuation moved gets an event of its own in the same
transaction (its host_status is now the destination's).
"""
import logging
import os
import threading
import uuid as uuidlib

from oslo_db import exception as db_exc

import nova.conf
from nova.compute import host_status_transitions as transitions
from nova.db import services as service_db
from nova.db import host_maintenance
from nova.db import host_status_events as store
from nova import exception
from nova.metrics import host_status_watcher as watcher_metrics
from nova.notifications import host_monitor
from nova.notifications import notifier as notifier_mod
from nova.notifications import payloads
from nova import servicegroup

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)
PUBLISHER = 'nova-host-status-watcher'
PRUNE_EVERY = 600     # ticks between two retention prunes
_OUTAGE_REASONS = frozenset((transitions.LIVENESS_UNAVAILABLE, transitions.LIVENESS_RESTORED))


def lease_ttl():
    ttl = CONF.host_status_watcher.lease_ttl or CONF.service_down_time / 2.0
    return min(ttl, float(CONF.service_down_time))


def _reason(old, new):
    return transitions.reason(old and transitions.State(*old), new)


class Watcher:

    def __init__(self, notifier=None, group=None, holder=None, metrics=None, masakari=None):
        """``masakari``: an openstacksdk connection for the host monitor
        (by default one from the [masakari] options, made when first used)."""
        self.holder = holder or '%s:%d:%s' % (CONF.host, os.getpid(), uuidlib.uuid4().hex[:8])
        self.notifier = notifier or notifier_mod.get_notifier('%s:%s' % (PUBLISHER, CONF.host))
        self.group = group or servicegroup.API()
        self.metrics = (metrics if metrics is not None
                        else watcher_metrics.WatcherMetrics(registry=None))
        self.stop_event = threading.Event()
        self.active = False
        self._pending = threading.Event()
        self._ticks = 0
        self._db_error = False
        self._backend_down = None       # None: not known to this watcher yet
        self.host_monitor = None
        if CONF.host_status_watcher.notify_masakari:
            self.host_monitor = host_monitor.HostMonitor(self.holder, lease_ttl, masakari)

    def stop(self):
        self.stop_event.set()
        self._pending.set()

    def run(self):
        """Watch until stop(); gives the lease up on the way out."""
        LOG.info('watcher %s started, standing by until it holds the lease', self.holder)
        sender = threading.Thread(target=self._deliver_loop, name='deliver', daemon=True)
        sender.start()
        monitor = None
        if self.host_monitor is not None:
            monitor = threading.Thread(target=self._host_monitor_loop, name='host-monitor',
                                       daemon=True)
            monitor.start()
        try:
            while not self.stop_event.is_set():
                try:
                    self.tick()
                    if self._db_error:
                        LOG.info('database reachable again')
                    self._db_error = False
                except db_exc.DBError as exc:
                    if not self._db_error:
                        LOG.error('database unavailable: %s', exc)
                    self._db_error = True
                    self._set_active(False)
                except Exception:
                    # a bug must not end the watching: the next tick compares
                    # again from the stored state
                    LOG.exception('watch tick failed')
                    self._set_active(False)
                self.stop_event.wait(CONF.host_status_watcher.interval)
        finally:
            sender.join(5)
            if monitor is not None:
                monitor.join(5)
            if self.active:
                try:
                    store.release_lease(self.holder)
                except db_exc.DBError:
                    pass

    def _set_active(self, active):
        if active != self.active:
            LOG.info('watcher %s is %s', self.holder, 'active' if active else 'standing by')
            if active:
                self.metrics.activated()
            else:
                self.metrics.standby()
        self.active = active

    def tick(self):
        """One look at every compute service (the active watcher), or one
        attempt at the lease (a standby)."""
        ttl = lease_ttl()
        if not self.active:
            if not store.hold_lease(self.holder, ttl):
                return
            self._set_active(True)
            self._backend_down = None       # unknown: ask the stored memory
        rows = service_db.service_list(binary=service_db.COMPUTE_BINARY)
        try:
            alive = self.group.hosts_up({row['host']: row for row in rows})
        except exception.ServiceGroupUnavailable as exc:
            if self._backend_down is not True:
                LOG.warning('liveness unknown: %s', exc)
            if self._record_liveness(ttl, available=False):
                self.metrics.liveness_unavailable(rows)
            return
        if self._backend_down is not False:
            if not self._record_liveness(ttl, available=True):
                return
        current = {(row['host'], row['binary']):
                   (transitions.state(row, row['host'] in alive), row['last_seen_up'])
                   for row in rows}
        created = store.record_states(
            self.holder, ttl, current, _reason,
            apply=lambda conn: self._apply_maintenance(conn, alive))
        if created is None:
            self._set_active(False)
            return
        self.metrics.looked(rows, alive)
        if created:
            self._pending.set()
        host_monitor.fence_unknown_hosts()
        self._ticks += 1
        if self._ticks % PRUNE_EVERY == 1:
            retention = CONF.host_status_watcher.retention_days
            pruned = store.prune(retention * 86400)
            if pruned:
                LOG.info('pruned %d events older than %d days', pruned, retention)
            kept = max(retention, host_maintenance.MIN_HISTORY_DAYS)
            pruned = host_maintenance.prune(kept * 86400)
            if pruned:
                LOG.info('pruned %d maintenance windows that ended more than %d days ago',
                         pruned, kept)

    @staticmethod
    def _apply_maintenance(conn, alive):
        """Start and end the maintenance windows whose time has come, in the
        transaction that stores this tick's events (``conn``): a watcher
        dying in between leaves neither, and the next one does both. The
        windows' rows are the only memory: nothing to rebuild after a
        restart. Returns ({(host, binary): reason} of the services to
        announce, {(host, binary): (State, last_seen_up)} of them now)."""
        announce = {}
        for row in host_maintenance.start_due(conn):
            LOG.info('maintenance window %s of %s starts', row['uuid'], row['host'])
            announce[(row['host'], service_db.COMPUTE_BINARY)] = transitions.MAINTENANCE_STARTED
        for row in host_maintenance.end_due(conn):
            LOG.info('maintenance window %s of %s ends', row['uuid'], row['host'])
            announce[(row['host'], service_db.COMPUTE_BINARY)] = transitions.MAINTENANCE_ENDED
        changed = {}
        for host, binary in announce:
            for service in service_db.services_with_liveness(conn, host=host, binary=binary):
                changed[(host, binary)] = (transitions.state(service, host in alive),
                                           service['last_seen_up'])
        return announce, changed

    def _record_liveness(self, ttl, available):
        reason = (transitions.LIVENESS_RESTORED if available
                  else transitions.LIVENESS_UNAVAILABLE)
        created = store.record_liveness(self.holder, ttl, available, reason)
        if created is None:
            self._set_active(False)
            return False
        self._backend_down = not available
        if created:
            self._pending.set()
        return True

    # -------------------------------------------------------------- delivery

    def _deliver_loop(self):
        while not self.stop_event.is_set():
            self._pending.wait(1.0)
            self._pending.clear()
            if not self.active:
                continue
            try:
                while self.active and not self.stop_event.is_set():
                    batch = store.undelivered()
                    if not batch:
                        break
                    for event in batch:
                        self.deliver(event)
                        delivered_at = store.mark_delivered(event['id'])
                        self.metrics.delivered((delivered_at - event['at']).total_seconds())
            except db_exc.DBError as exc:
                LOG.warning('delivery paused, database unavailable: %s', exc)
                self.stop_event.wait(1.0)
                self._pending.set()
            except Exception:
                LOG.exception('delivery failed; retrying the undelivered events')
                self.stop_event.wait(1.0)
                self._pending.set()

    def _host_monitor_loop(self):
        while not self.stop_event.is_set():
            if self.active:
                try:
                    self.host_monitor.run_once()
                except db_exc.DBError as exc:
                    LOG.warning('host monitor paused, database unavailable: %s', exc)
                except Exception:
                    LOG.exception('host monitor failed; trying again')
            wait = CONF.host_status_watcher.interval
            if self.host_monitor.failing:
                wait = max(wait, self.host_monitor.RETRY_AFTER)
            self.stop_event.wait(wait)

    def deliver(self, event):
        """Every notification of one stored event."""
        ctxt = {}
        if event['reason'] == store.SERVICE_UPDATE:
            # Nova's own, from the service as it is now, published as the
            # service itself (Nova's publisher: its binary and host)
            for service in service_db.service_list(host=event['host'], binary=event['binary']):
                self.notifier.prepare(
                    publisher_id='%s:%s' % (service['binary'], service['host'])).info(
                    ctxt, 'service.update',
                    payloads.service_status(service, CONF.default_availability_zone))
            return
        if event['reason'] != store.EVACUATED:     # one server's move: its own only
            self.notifier.info(ctxt, 'service.host_status.update',
                               payloads.service_host_status(event))
        if event['reason'] in _OUTAGE_REASONS:
            return
        for server in store.servers_of(event['id']):
            self.notifier.info(ctxt, 'instance.host_status.update',
                               payloads.instance_host_status(event, server))
