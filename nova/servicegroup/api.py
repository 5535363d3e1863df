"""Is a service alive? One answer for the API, the scheduler and os-services.

The rule itself is SQL (servicegroup.liveness): every read of service rows
selects it as ``is_up``, judged by the database on its own clock.
"""
import nova.conf
from nova.servicegroup.drivers import db as db_driver
from nova.servicegroup.drivers import tooz as tooz_driver

CONF = nova.conf.CONF

_DRIVERS = {'db': db_driver.DbDriver, 'tooz': tooz_driver.ToozDriver}


class API:
    _driver_instance = None

    @property
    def _driver(self):
        # made on first use: deciding liveness needs no driver
        if self._driver_instance is None:
            self._driver_instance = _DRIVERS[CONF.servicegroup.driver]()
        return self._driver_instance

    @staticmethod
    def service_is_up(service):
        """``service`` is a row read with its ``is_up`` (db.service_list)."""
        return bool(service['is_up'])

    def join(self, service, stop_event):
        """Heartbeat for ``service`` (the row db.service_register returns)
        until stop_event is set (blocking)."""
        self._driver.heartbeat_loop(service, CONF.report_interval, stop_event)
