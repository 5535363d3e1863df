"""Liveness on leases in Redis or etcd: heartbeats never touch SQL.

Every nova-compute holds one membership per host that the backend expires
service_down_time after its last heartbeat, on the backend's own clock: a
Redis key's TTL (redis_members), an etcd lease (etcd_members). A steady
heartbeat is one backend operation, and it re-creates a membership that
expired or that a restart lost without reading anyone else's.

The API's reads cost the hosts asked, not the cloud: one Redis round trip
for a page (MGET), or a per-process etcd cache kept by a watch
(etcd_members.Members), which answers UNKNOWN rather than from a watch it
cannot vouch for. os-services shows each host's last heartbeat as the
backend recorded it.

tooz, the driver's former client, no longer pays here: its group API reads
the whole group to answer for one member, repairs a membership with a read
and two writes per beat, and has neither MGET nor a watch. Its URLs
(nova.conf.liveness_backend) and ``driver = tooz`` keep working.
"""
import logging
import time

import nova.conf
from nova.conf import liveness_backend
from nova.db import services as service_db
from nova import exception
from nova.servicegroup.drivers.lease import etcd_members
from nova.servicegroup.drivers.lease import redis_members

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class LeaseDriver:
    def __init__(self):
        self.backend = liveness_backend.parse(CONF.servicegroup.backend_url,
                                              CONF.service_down_time)
        if self.backend.kind == 'etcd':
            self._members = etcd_members.members(self.backend, CONF.report_interval)
        else:
            self._members = redis_members.Members(self.backend, CONF.report_interval)

    def hosts_up(self, services):
        """The hosts among ``services`` ({host: service row}) whose
        membership the backend holds and that are not forced down."""
        def not_forced_down(hosts):
            return {host for host in hosts if not services[host]['forced_down']}
        try:
            return not_forced_down(self._members.up(services))
        except exception.ServiceGroupUnavailable as exc:
            raise exception.ServiceGroupUnavailable(
                exc.message, hosts_up=not_forced_down(exc.hosts_up)) from exc

    def all_hosts_up(self):
        """Every host whose membership the backend holds (the host_status
        filter applies forced down and disabled itself)."""
        if self.backend.kind == 'etcd':
            return self._members.all_up()
        # Redis keeps no index of its keys: the hosts to ask are the
        # computes the database knows, all in one round trip
        return self._members.up({row['host'] for row in
                                 service_db.service_list(binary=service_db.COMPUTE_BINARY)})

    def heartbeats(self, services):
        """{host: last heartbeat, UTC} of the hosts among ``services`` that
        are up, as the backend recorded it."""
        return self._members.heartbeats(services)

    def heartbeat_loop(self, service, interval, stop_event, guard=None):
        module = etcd_members if self.backend.kind == 'etcd' else redis_members
        membership = module.Membership(self.backend, service['host'])
        failing = False
        next_beat = time.monotonic()
        while not stop_event.is_set():
            if guard is not None and not guard.may_beat(interval):
                next_beat = time.monotonic()
                continue
            if CONF.servicegroup.tooz_also_db_heartbeat:
                self._db_heartbeat(service)
            try:
                if membership.beat():
                    LOG.info('%s joined the liveness backend %s', service['host'], self.backend)
                if failing:
                    LOG.info('heartbeats reach %s again', self.backend)
                failing = False
                if guard is not None:
                    guard.beaten()
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
            service_db.service_heartbeat(service['id'])
        except Exception as exc:  # the database may be away; the backend is what counts
            LOG.warning('database heartbeat failed: %s', exc)
