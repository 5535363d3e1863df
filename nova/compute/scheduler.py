"""Picks hosts for new servers: enabled, not forced down, up, and meeting
the flavor's extra specs when [filter_scheduler] enabled_filters names
AggregateInstanceExtraSpecsFilter; least loaded first; a host whose
maintenance window starts within [scheduler] maintenance_lookahead only
when no other host is valid. A server group's policy filters (hard) or
orders (soft) the hosts, pick by pick (nova/compute/group_policy.py)."""
import logging

import nova.conf
from nova.compute import aggregate_filter
from nova.compute import group_policy
from nova.db import aggregates
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import host_maintenance
from nova.db import server_groups
from nova import exception
from nova import servicegroup

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def select_hosts(count, extra_specs=None, group=None):
    """``count`` hosts (repeats allowed) for servers of a flavor with
    ``extra_specs``, members of ``group`` (a group row) if given, or None
    when no host is valid for every one of them (liveness that cannot be
    read makes no host valid)."""
    return _pick(count, extra_specs=extra_specs, group=group)


def select_evacuation_host(source, requested=None, extra_specs=None, group=None,
                           instance_uuid=None):
    """A host to rebuild a server of ``source`` on, or None: an UP,
    enabled host other than the source that the server's ``group`` (a
    group row) allows, least loaded first; with ``requested``, that host if
    it is one of those (Nova's scheduler checking a destination that is
    not forced)."""
    picks = _pick(1, exclude=source, only=requested, extra_specs=extra_specs,
                  group=group, instance_uuid=instance_uuid)
    return picks[0] if picks else None


def placement(conn, group, instance_uuid=None):
    """The group_policy.Placement of ``group`` (a group row) for a server
    (``instance_uuid``, left out of the count) or for new members."""
    return group_policy.Placement(group['policy'], server_groups.rules_of(group),
                                  server_groups.member_hosts(conn, group['id'],
                                                             exclude=instance_uuid))


def _by_aggregates(conn, hosts, extra_specs):
    """The hosts the aggregate filter lets through (all when it is off)."""
    if aggregate_filter.NAME not in CONF.filter_scheduler.enabled_filters:
        return hosts
    wanted = aggregate_filter.requirements(extra_specs or {})
    if not wanted:
        return hosts
    metadata = aggregates.metadata_of_hosts(conn, hosts)
    return [h for h in hosts if aggregate_filter.passes(metadata[h], wanted)]


def _pick(count, exclude=None, only=None, extra_specs=None, group=None, instance_uuid=None):
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
        load = instance_db.instance_counts_by_host(conn, candidates)
        members = placement(conn, group, instance_uuid) if group is not None else None
    picks = []
    for _ in range(count):
        allowed = candidates if members is None else [
            h for h in candidates if members.allows(h)]
        if not allowed:
            return None
        allowed = [h for h in allowed if h not in soon] or allowed
        host = min(allowed, key=lambda h: (members.weight(h) if members else 0,
                                           load.get(h, 0), h))
        load[host] = load.get(host, 0) + 1
        if members is not None:
            members.place(host)
        picks.append(host)
    return picks
