"""host_status: the one place that maps a compute service to what users see.

Precedence: no compute service gives "", forced down beats disabled,
disabled beats the heartbeat.
"""
import itertools

UP = 'UP'
DOWN = 'DOWN'
MAINTENANCE = 'MAINTENANCE'
UNKNOWN = 'UNKNOWN'
NONE = ''
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
