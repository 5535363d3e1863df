"""Is a service alive? One answer for the API, the scheduler and os-services.

The rule itself is SQL (servicegroup.liveness): every read of service rows
selects it as ``is_up``, judged by the database on its own clock.
"""
import nova.conf
from nova.servicegroup.drivers import db as db_driver

CONF = nova.conf.CONF

_DRIVERS = {'db': db_driver.DbDriver}


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

    def hosts_up(self, services):
        """The hosts of ``services`` ({host: live row read with is_up})
        whose service is alive."""
        return {host for host, row in services.items() if row['is_up']}

    def join(self, service_id, stop_event):
        """Heartbeat for ``service_id`` until stop_event is set (blocking)."""
        self._driver.heartbeat_loop(service_id, CONF.report_interval, stop_event)
