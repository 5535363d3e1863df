"""host_status: the one place that maps a compute service to what users see.

The mapping is evaluated by the database, in the statement that reads the
servers (the host's service is joined beside each one), so a page costs no
extra query and no per-server work beyond a tuple index.
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
    is ``service`` (an alias outer-joined beside the server: all NULL when
    there is none), as an index into STATUSES.

    Precedence: no service row gives "", then forced down beats disabled,
    disabled beats the heartbeat.
    """
    return sa.case(
        (service.c.id.is_(None), STATUSES.index(NONE)),
        (service.c.forced_down, STATUSES.index(DOWN)),
        (service.c.disabled, STATUSES.index(MAINTENANCE)),
        (liveness.is_up(service), STATUSES.index(UP)),
        else_=STATUSES.index(UNKNOWN))
