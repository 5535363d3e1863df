"""host_status: the one place that maps a compute service to what users see.

The mapping is evaluated by the database, on its own clock, in the statement
that reads the services (or beside the server, for show): a page costs one
statement for all its hosts and a tuple index per server.
"""
import sqlalchemy as sa

from nova.servicegroup import liveness

UP = 'UP'
DOWN = 'DOWN'
MAINTENANCE = 'MAINTENANCE'
UNKNOWN = 'UNKNOWN'
NONE = ''

# What code() returns, as indexes into this tuple.
STATUSES = (NONE, DOWN, MAINTENANCE, UP, UNKNOWN)


def code(service):
    """SQL: the host_status of a server whose host's live nova-compute row
    is ``service`` (the services table, or an alias outer-joined beside the
    server: all NULL when there is none), as an index into STATUSES.

    Precedence: no service row gives "", then forced down beats disabled,
    disabled beats the heartbeat.
    """
    return sa.case(
        (service.c.id.is_(None), _code(NONE)),
        (service.c.forced_down, _code(DOWN)),
        (service.c.disabled, _code(MAINTENANCE)),
        (liveness.is_up(service), _code(UP)),
        else_=_code(UNKNOWN))


def _code(status):
    # inline, not a bound parameter: constants of the statement
    return sa.literal_column(str(STATUSES.index(status)), sa.Integer())


def host_status(service, alive):
    """The legacy value for one host in Python: ``service`` is its live
    nova-compute row (a mapping with ``disabled`` and ``forced_down``) or
    None, ``alive`` what the servicegroup says of it. Same precedence as
    code()."""
    if service is None:
        return NONE
    if service['forced_down']:
        return DOWN
    if service['disabled']:
        return MAINTENANCE
    return UP if alive else UNKNOWN
