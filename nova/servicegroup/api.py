"""Is a service alive? One answer for the API, the scheduler and os-services.

The configured driver ([servicegroup] driver) heartbeats for the computes
and answers for a batch of service rows at once: a page of servers asks
once for all its hosts.
"""
import nova.conf
from nova.servicegroup.drivers import db as db_driver
from nova.servicegroup.drivers import lease as lease_driver

CONF = nova.conf.CONF

# 'tooz': the lease driver's former name, for existing configs
_DRIVERS = {'db': db_driver.DbDriver, 'lease': lease_driver.LeaseDriver,
            'tooz': lease_driver.LeaseDriver}


class API:
    _driver_instance = None

    @property
    def _driver(self):
        if self._driver_instance is None:
            self._driver_instance = _DRIVERS[CONF.servicegroup.driver]()
        return self._driver_instance

    def hosts_up(self, services):
        """The hosts among ``services`` ({host: live nova-compute row, as
        db.joined_compute_services reads it}) whose service is alive. Raises
        ServiceGroupUnavailable when that cannot be known for some of them;
        its ``hosts_up`` names those known alive all the same."""
        if not services:
            return set()
        return self._driver.hosts_up(services)

    def all_hosts_up(self):
        """Every host whose compute service is alive, for a filter the
        database applies; None where the database itself decides (the db
        driver's rule is a column of the rows it reads). Raises as
        hosts_up."""
        return self._driver.all_hosts_up()

    def updated_at(self, services):
        """{host: when its service was last seen} for ``services`` (rows of
        db.service_list, one binary): the later of the row's updated_at and
        the last heartbeat the driver's backend recorded, as Nova's memcache
        driver reports it. Raises ServiceGroupUnavailable."""
        if not services:
            return {}
        beats = self._driver.heartbeats(services)
        seen = {}
        for host, service in services.items():
            times = [t for t in (service['updated_at'], beats.get(host)) if t is not None]
            seen[host] = max(times) if times else None
        return seen

    def service_is_up(self, service):
        """One row (db.service_list); the same rule, the same exception."""
        return service['host'] in self.hosts_up({service['host']: service})

    def join(self, service, stop_event, guard=None):
        """Heartbeat for ``service`` (the row db.service_register returns)
        until stop_event is set (blocking); each beat only when ``guard``
        (nova.compute.lapse.LapseGuard) allows it."""
        self._driver.heartbeat_loop(service, CONF.report_interval, stop_event, guard)
