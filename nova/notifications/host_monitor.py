"""The host-status watcher as OpenStack Masakari's host monitor
([host_status_watcher] notify_masakari).

When a compute host becomes DOWN (forced down: a fence confirmed it is
off), the active watcher sends Masakari the COMPUTE_HOST notification that
masakari-monitors' host monitor would, through openstacksdk's instance_ha
proxy. UNKNOWN alone (a stale heartbeat) counts only after
``notify_after_unknown`` seconds, when that is set.

Each transition is settled once, in its stored event (host_monitor_at,
host_monitor_result), under the watcher lease and only after Masakari
answered: a watcher that dies between the two leaves it unsettled, and the
next one sends the same notification again (same host, generated_time and
payload), which Masakari refuses with 409 as a duplicate or as a host
already under maintenance. So each transition reaches Masakari at least
once and starts at most one recovery.
"""
import logging

from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import loading as ks_loading

import nova.conf
from nova.compute import host_status as hs
from nova.db import services as service_db
from nova.db import host_status_events as store

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)
# what masakari-monitors' host monitor sends for a host that went offline
PAYLOAD = {'event': 'STOPPED', 'host_status': 'NORMAL', 'cluster_status': 'OFFLINE'}


def notification(event):
    """The COMPUTE_HOST notification of one stored transition: the same
    every time it is sent, so Masakari recognises a resend."""
    return {'type': 'COMPUTE_HOST', 'hostname': event['host'],
            'generated_time': event['at'].strftime('%Y-%m-%dT%H:%M:%S.%f'),
            'payload': dict(PAYLOAD)}


def connect():
    """openstacksdk on the [masakari] group's keystoneauth options."""
    import openstack
    group = nova.conf.masakari.GROUP
    auth = ks_loading.load_auth_from_conf_options(CONF, group)
    session = ks_loading.load_session_from_conf_options(CONF, group, auth=auth)
    return openstack.connection.Connection(session=session, oslo_conf=CONF)


class HostMonitor:
    """What the active watcher does for Masakari, one ``run_once()`` a
    tick of its own thread (RETRY_AFTER seconds apart while Masakari does
    not answer)."""

    RETRY_AFTER = 2.0

    def __init__(self, holder, lease_ttl, connection=None):
        self.holder = holder
        self.lease_ttl = lease_ttl
        self._connection = connection
        self.failing = False    # Masakari did not answer last time: retry less often

    @property
    def connection(self):
        if self._connection is None:
            self._connection = connect()
        return self._connection

    @staticmethod
    def _statuses():
        if CONF.host_status_watcher.notify_after_unknown is None:
            return (hs.DOWN,)
        return (hs.DOWN, hs.UNKNOWN)

    def run_once(self):
        """Settle every due transition; False when the lease is lost."""
        pending = store.host_monitor_pending(self.holder, self.lease_ttl(), self._statuses())
        if pending is None:
            return False
        delay = CONF.host_status_watcher.notify_after_unknown
        for event in pending:
            if event['current_status'] == hs.UNKNOWN and event['age'] < delay:
                continue
            if store.notified_since(event, hs.UP):
                result = store.COVERED
            else:
                result = self.send(event)
                self.failing = result is None
                if result is None:
                    return True         # again next time, with the same notification
            if store.settle_host_monitor(self.holder, self.lease_ttl(), event['id'], result):
                LOG.info('Masakari host monitor: %s became %s (event %s): %s',
                         event['host'], event['current_status'], event['uuid'], result)
        return True

    def send(self, event):
        """SENT, REFUSED (a 4xx from Masakari), or None when it did not
        answer (or answered 5xx)."""
        from openstack import exceptions as sdk_exc
        body = notification(event)
        try:
            created = self.connection.instance_ha.create_notification(**body)
        except sdk_exc.HttpException as exc:
            status = exc.status_code or 0
            if 400 <= status < 500:
                LOG.warning('Masakari refused the notification of %s: %s', event['host'],
                            exc.details or exc)
                return store.REFUSED
            LOG.warning('Masakari failed on the notification of %s: %s', event['host'], exc)
            return None
        except (sdk_exc.SDKException, ks_exc.ClientException) as exc:
            LOG.warning('Masakari unreachable for the notification of %s: %s',
                        event['host'], exc)
            return None
        LOG.info('Masakari notification %s sent for %s', created.notification_uuid,
                 event['host'])
        return store.SENT


def fence_unknown_hosts():
    """Force down every compute service UNKNOWN for at least
    [host_status_watcher] force_down_after_unknown seconds (a drill's fence;
    see the option)."""
    delay = CONF.host_status_watcher.force_down_after_unknown
    if delay is None:
        return []
    fenced = []
    for host, binary in store.in_status_for(hs.UNKNOWN, delay):
        if service_db.service_update(host, binary, forced_down=True):
            LOG.warning('forced down %s (%s): UNKNOWN for %s s '
                        '([host_status_watcher] force_down_after_unknown)', host, binary, delay)
            fenced.append(host)
    return fenced
