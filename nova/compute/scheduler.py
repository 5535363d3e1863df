"""Picks hosts for new servers: enabled, not forced down, up, and meeting
the flavor's extra specs when [filter_scheduler] enabled_filters names
AggregateInstanceExtraSpecsFilter; least loaded first; a host whose
maintenance window starts within [scheduler] maintenance_lookahead only
when no other host is valid."""
import logging

import nova.conf
from nova.compute import aggregate_filter
from nova.db import aggregates
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import host_maintenance
from nova import exception
from nova import servicegroup

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def select_hosts(count, extra_specs=None):
    """``count`` hosts (repeats allowed) for servers of a flavor with
    ``extra_specs``, or None when no host is valid (liveness that cannot be
    read makes no host valid)."""
    return _pick(count, extra_specs=extra_specs)


def select_evacuation_host(source, requested=None, extra_specs=None):
    """A host to rebuild a server of ``source`` on, or None: an UP,
    enabled host other than the source, least loaded first; with
    ``requested``, that host if it is one of those (Nova's scheduler
    checking a destination that is not forced)."""
    picks = _pick(1, exclude=source, only=requested, extra_specs=extra_specs)
    return picks[0] if picks else None


def _by_aggregates(conn, hosts, extra_specs):
    """The hosts the aggregate filter lets through (all when it is off)."""
    if aggregate_filter.NAME not in CONF.filter_scheduler.enabled_filters:
        return hosts
    wanted = aggregate_filter.requirements(extra_specs or {})
    if not wanted:
        return hosts
    metadata = aggregates.metadata_of_hosts(conn, hosts)
    return [h for h in hosts if aggregate_filter.passes(metadata[h], wanted)]


def _pick(count, exclude=None, only=None, extra_specs=None):
    with engine.reader() as conn:
        services = service_db.services_with_liveness(conn, binary=service_db.COMPUTE_BINARY)
        enabled = {s['host']: s for s in services
                   if not s['disabled'] and not s['forced_down']
                   and s['host'] != exclude and only in (None, s['host'])}
        try:
            candidates = sorted(servicegroup.API().hosts_up(enabled))
        except exception.ServiceGroupUnavailable as exc:
            LOG.warning('no host chosen, liveness unavailable: %s', exc)
            return None
        candidates = _by_aggregates(conn, candidates, extra_specs)
        if not candidates:
            return None
        soon = host_maintenance.hosts_starting_within(
            conn, CONF.scheduler.maintenance_lookahead)
        candidates = [h for h in candidates if h not in soon] or candidates
        load = instance_db.instance_counts_by_host(conn, candidates)
    picks = []
    for _ in range(count):
        host = min(candidates, key=lambda h: (load.get(h, 0), h))
        load[host] = load.get(host, 0) + 1
        picks.append(host)
    return picks
