"""host_status: the one place that maps a compute service to what users see.

Legacy (Nova's field): no compute service gives "", forced down beats
disabled, disabled beats the heartbeat. Host health (our resource): DOWN >
UNKNOWN > MAINTENANCE > NEEDS_MAINTENANCE > UP, so a dead disabled host is
UNKNOWN, never MAINTENANCE.
"""
import itertools

UP = 'UP'
DOWN = 'DOWN'
MAINTENANCE = 'MAINTENANCE'
UNKNOWN = 'UNKNOWN'
NONE = ''
NEEDS_MAINTENANCE = 'NEEDS_MAINTENANCE'
# what a list may be narrowed to (a server without a host has NONE)
FILTERABLE = (UP, DOWN, MAINTENANCE, UNKNOWN)


def host_status(service, alive):
    """The host_status of a server whose host's live nova-compute service is
    ``service`` (a mapping with ``forced_down`` and ``disabled``, or None)
    and whose liveness is ``alive``."""
    if service is None:
        return NONE
    if service['forced_down']:
        return DOWN
    if service['disabled']:
        return MAINTENANCE
    return UP if alive else UNKNOWN


def by_host(services, hosts_up):
    """{host: host_status} for ``services`` ({host: service}); a host
    without a service is absent (its servers' status is NONE)."""
    return {host: host_status(service, host in hosts_up)
            for host, service in services.items()}


def service_states(statuses):
    """The (forced_down, disabled, alive) triples of a live compute service
    whose host_status is one of ``statuses``: a filter on host_status as the
    database can apply it, derived from host_status() itself."""
    return tuple(state for state in itertools.product((False, True), repeat=3)
                 if host_status({'forced_down': state[0], 'disabled': state[1]}, state[2])
                 in statuses)


def health_status(service, alive, window):
    """The host-health status of a host whose live compute service is
    ``service`` (or None) with liveness ``alive`` and ``window`` its current
    or next maintenance window (or None). The legacy answer where it holds;
    liveness beats an operator's disable; a window ahead marks a host that
    still serves."""
    legacy = host_status(service, alive)
    if legacy == MAINTENANCE and not alive:
        return UNKNOWN
    if legacy == UP and window is not None:
        return NEEDS_MAINTENANCE
    return legacy


def liveness(service, alive):
    """up | stale | never-reported | no-host, as the host-health view says."""
    if service is None:
        return 'no-host'
    if alive:
        return 'up'
    return 'never-reported' if service['last_seen_up'] is None else 'stale'
