"""host_status: the one place that maps a compute service to what users see.

Precedence: no compute service gives "", forced down beats disabled,
disabled beats the heartbeat.
"""
UP = 'UP'
DOWN = 'DOWN'
MAINTENANCE = 'MAINTENANCE'
UNKNOWN = 'UNKNOWN'
NONE = ''


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
