"""Is a service alive? One answer for the API, the scheduler and os-services."""
import datetime
import functools

import nova.conf
from nova.servicegroup.drivers import db as db_driver

CONF = nova.conf.CONF

_DRIVERS = {'db': db_driver.DbDriver}


def is_up(service, db_now, service_down_time):
    """Pure liveness rule, judged on the database's clock.

    A forced-down service is down. Otherwise the last heartbeat (or, for a
    service that never reported, its creation) must lie within
    service_down_time of the database's current time, in either direction:
    a heartbeat far in the future means a clock jump and is not trusted.
    """
    if service['forced_down']:
        return False
    last = service['last_seen_up'] or service['created_at']
    if last is None or db_now is None:
        return False
    return abs(db_now - last) <= _window(service_down_time)


@functools.lru_cache(maxsize=8)
def _window(seconds):
    return datetime.timedelta(seconds=seconds)


class API:
    _driver_instance = None

    @property
    def _driver(self):
        # made on first use: deciding liveness needs no driver
        if self._driver_instance is None:
            self._driver_instance = _DRIVERS[CONF.servicegroup.driver]()
        return self._driver_instance

    def service_is_up(self, service):
        """``service`` is a row read with the DB's time beside it (db_now)."""
        return is_up(service, service['db_now'], CONF.service_down_time)

    def services_up(self, services):
        """[(service, is it up)] for rows read with the DB's time beside them."""
        down_time = CONF.service_down_time
        return [(s, is_up(s, s['db_now'], down_time)) for s in services]

    def services_for_hosts(self, conn, hosts, binary):
        """The live ``binary`` services on ``hosts``: host, disabled,
        forced_down and what service_is_up needs. One query."""
        return self._driver.services_for_hosts(conn, hosts, binary)

    def join(self, service_id, stop_event):
        """Heartbeat for ``service_id`` until stop_event is set (blocking)."""
        self._driver.heartbeat_loop(service_id, CONF.report_interval, stop_event)
