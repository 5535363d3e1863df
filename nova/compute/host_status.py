"""host_status: the one place that maps a compute service to what users see."""

UP = 'UP'
DOWN = 'DOWN'
MAINTENANCE = 'MAINTENANCE'
UNKNOWN = 'UNKNOWN'
NONE = ''


def host_status(service, service_is_up):
    """``service`` is the live nova-compute row of the server's host, or None.

    Precedence: forced down beats disabled, disabled beats the heartbeat.
    """
    if service is None:
        return NONE
    if service['forced_down']:
        return DOWN
    if service['disabled']:
        return MAINTENANCE
    return UP if service_is_up else UNKNOWN
