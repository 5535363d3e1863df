"""The db servicegroup driver's liveness rule, as SQL: the database judges
on its own clock.

Heartbeats write the database's time (dbtime.db_now) and every read of
service rows selects, as ``is_up``, how long ago that was against
``service_down_time``, in the same statement: no process clock enters a
decision and a page of servers costs no extra query. The servicegroup db
driver answers from that column (servicegroup/drivers/db.py).
"""
import sqlalchemy as sa

from nova.db.dbtime import seconds_since


def heartbeat_age(service):
    """Seconds since the service's last heartbeat on the database's clock;
    a service that never reported counts from its creation."""
    return seconds_since(sa.func.coalesce(service.c.last_seen_up, service.c.created_at))


def is_up(service):
    """SQL truth of "is ``service`` (a services table or alias) up".

    A forced-down service is down. Otherwise its heartbeat age must lie
    within the bound parameter ``service_down_time`` (seconds) in either
    direction: a heartbeat far in the future means a clock jump and is not
    trusted. NULL (no row joined) counts as down.
    """
    down_time = sa.bindparam('service_down_time', type_=sa.Float())
    return sa.and_(sa.not_(service.c.forced_down),
                   sa.func.abs(heartbeat_age(service)) <= down_time)
