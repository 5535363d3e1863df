"""The fixtures gabbi YAML files (gabbits/*.yaml) name in ``fixtures:``.

``APIFixture`` gives a YAML file the real WSGI app (noauth2) on a fresh,
migrated SQLite file seeded with a server per host_status case, and
exposes the servers' uuids and hostIds as environment variables
(``$ENVIRON['C_UP']``, ``$ENVIRON['C_UP_HOST_ID']``); ``ListFixture`` and ``CreateFixture`` seed other
data the same way. Policy fixtures listed after one of them change the
rules for the whole file; ``WindowTimes`` and ``StatusEvents`` add what
the host-health extension's files need.
"""
import datetime
import os
import time

import sqlalchemy as sa
from gabbi import fixture

from nova.compute import host_status_transitions as transitions
from nova.compute.host_id import host_id
from nova.db import dbtime
from nova.db import services as service_db
from nova.db import engine
from nova.db import host_status_events as events
from nova.db import models
from nova.tests import fixtures as nova_fixtures

# Hosts, one per state of their nova-compute service (h-ghost has none,
# h-not-compute only a nova-scheduler); servers: (name, host, project,
# extra columns). The names are the reference captures' case names.
SERVICES = (
    ('h-up', {}),
    ('h-stale', {'seconds_ago': 7200}),
    ('h-forced', {'forced_down': True}),
    ('h-disabled', {'disabled': True, 'disabled_reason': 'maintenance'}),
    ('h-forced-disabled', {'forced_down': True, 'disabled': True}),
    # an old, deleted, fenced row under the live one must not count
    ('h-reborn', {'forced_down': True, 'disabled': True, 'deleted': True}),
    ('h-reborn', {}),
    ('h-not-compute', {'binary': 'nova-scheduler'}),
)
SERVERS = (
    ('c-up', 'h-up', 'demo', {}),
    ('c-stale', 'h-stale', 'demo', {}),
    ('c-forced', 'h-forced', 'demo', {}),
    ('c-disabled', 'h-disabled', 'demo', {}),
    ('c-forced-dis', 'h-forced-disabled', 'demo', {}),
    ('c-nohost-cell0', None, 'demo', {}),
    ('c-nohost-build', None, 'demo', {'vm_state': 'building',
                                      'task_state': 'scheduling'}),
    ('c-ghost', 'h-ghost', 'demo', {}),
    ('c-reborn', 'h-reborn', 'demo', {}),
    ('c-not-compute', 'h-not-compute', 'demo', {}),
    ('alt-up', 'h-up', 'alt', {}),
    ('alt-stale', 'h-stale', 'alt', {}),
)

# an image id that is not the one the servers above boot from
OTHER_IMAGE = '6c1d3f2a-9b0e-4c55-8a51-3f5f0c0a7e11'

# The file's APIFixture, for the fixtures that adjust what it set up.
_current = None


def environ_name(server_name):
    """'c-forced-dis' -> 'C_FORCED_DIS'."""
    return server_name.upper().replace('-', '_')


class _LazyApp:
    """gabbi asks for the app before any fixture runs; build it on the
    first request, once the file's database and policy are in place."""

    def __init__(self):
        self._app = None

    def __call__(self, environ, start_response):
        if self._app is None:
            self._app = nova_fixtures.API().app
        return self._app(environ, start_response)


def setup_app():
    return _LazyApp()


class APIFixture(fixture.GabbiFixture):
    """A fresh database and the policy defaults, seeded with every case."""

    services = SERVICES
    servers = SERVERS

    def start_fixture(self):
        global _current
        self.database = nova_fixtures.Database()
        self.database.setUp()
        self.policy = nova_fixtures.Policy()
        self.policy.setUp()
        self.environ = {}
        for host, values in self.services:
            nova_fixtures.add_service(host, **values)
        for name, host, project, values in self.servers:
            values = dict({'user_id': project}, **values)
            uuid = nova_fixtures.add_server(name, host=host, project_id=project, **values)
            self.environ[environ_name(name)] = uuid
            if host is not None:
                self.environ[environ_name(name) + '_HOST_ID'] = host_id(project, host)
        self.environ['MISSING_SERVER'] = '00000000-0000-0000-0000-000000000042'
        self.environ['IMAGE'] = nova_fixtures.IMAGE
        self.environ['OTHER_IMAGE'] = OTHER_IMAGE
        os.environ.update(self.environ)
        _current = self

    def stop_fixture(self):
        global _current
        _current = None
        for name in self.environ:
            os.environ.pop(name, None)
        self.policy.cleanUp()
        self.database.cleanUp()


class ListFixture(APIFixture):
    """Project demo's servers for the list's filters, sorting and paging:
    s00..s06 on h1, then one server per filter value."""

    services = (('h1', {}), ('h2', {}))
    servers = tuple(('s%02d' % i, 'h1', 'demo', {}) for i in range(7)) + (
        ('big', 'h1', 'demo', {'flavor_id': '3'}),
        ('other-image', 'h2', 'demo', {'node': 'n2', 'image_ref': OTHER_IMAGE}),
        ('batch', 'h2', 'demo', {'reservation_id': 'r-batch001'}),
        ('alt-user', 'h1', 'demo', {'user_id': 'alt'}),
    )


class CreateFixture(APIFixture):
    """One enabled, heartbeating host and no servers yet."""

    services = (('h1', {}),)
    servers = ()


class FlavorsFixture(APIFixture):
    """The shipped flavors 1..5 plus a private one (p1, 1 GiB, 10 GiB of
    disk, as the reference cloud's) and a disabled public one (d1); no
    servers."""

    services = (('h1', {}),)
    servers = ()
    FLAVORS = (
        {'flavorid': 'p1', 'name': 'p1.private', 'memory_mb': 1024, 'vcpus': 1,
         'root_gb': 10, 'is_public': False, 'disabled': False},
        {'flavorid': 'd1', 'name': 'd1.disabled', 'memory_mb': 256, 'vcpus': 1,
         'root_gb': 1, 'is_public': True, 'disabled': True},
    )

    def start_fixture(self):
        super().start_fixture()
        with engine.writer() as conn:
            conn.execute(sa.insert(models.flavors), list(self.FLAVORS))


class AggregatesFixture(APIFixture):
    """APIFixture's cases plus h-spare1..3: live nova-computes without
    servers, as the reference cloud's spare hosts."""

    services = SERVICES + tuple(('h-spare%d' % i, {}) for i in (1, 2, 3))


class ExtraSpecsFixture(FlavorsFixture):
    """FlavorsFixture's flavors; flavor 3 carries the reference cloud's
    extra specs."""

    def start_fixture(self):
        super().start_fixture()
        with engine.writer() as conn:
            flavor_pk = conn.scalar(sa.select(models.flavors.c.id).where(
                models.flavors.c.flavorid == '3'))
            conn.execute(sa.insert(models.flavor_extra_specs), [
                {'flavor_id': flavor_pk, 'key': key, 'value': value}
                for key, value in (('hw:cpu_policy', 'dedicated'),
                                   ('hw:mem_page_size', 'large'))])


class UnknownOnlyPolicy(fixture.GabbiFixture):
    """nova_fixtures.UNKNOWN_ONLY_POLICY written to the file's policy.yaml."""

    def start_fixture(self):
        _current.policy.set_rules(nova_fixtures.UNKNOWN_ONLY_POLICY)

    def stop_fixture(self):
        _current.policy.set_rules({})


class MembersSeeHostStatusPolicy(fixture.GabbiFixture):
    """The full host_status rule granted to the owning project's readers."""

    RULES = {'os_compute_api:servers:show:host_status': 'rule:project_reader_or_admin'}

    def start_fixture(self):
        _current.policy.set_rules(self.RULES)

    def stop_fixture(self):
        _current.policy.set_rules({})


class ServicesFixture(APIFixture):
    """APIFixture's cases plus h-empty: a live nova-compute with no servers,
    which may be deleted."""

    services = SERVICES + (('h-empty', {}),)


class ActionsFixture(APIFixture):
    """Servers to act on (server-actions.yaml): on an up host, on a fenced
    (forced down) one, on one whose heartbeat is stale, locked by an
    admin or by their owner; a second up host and a disabled one to
    evacuate to."""

    services = (('h-up', {}), ('h-up2', {}), ('h-forced', {'forced_down': True}),
                ('h-stale', {'seconds_ago': 7200}),
                ('h-disabled', {'disabled': True, 'disabled_reason': 'maintenance'}))
    servers = (
        ('c-up', 'h-up', 'demo', {}),
        ('c-forced', 'h-forced', 'demo', {}),
        ('c-forced-locked', 'h-forced', 'demo', {'locked': True, 'locked_by': 'admin'}),
        ('c-stale', 'h-stale', 'demo', {}),
        ('c-admin-locked', 'h-up', 'demo', {'locked': True, 'locked_by': 'admin'}),
        ('c-owner-locked', 'h-up', 'demo', {'locked': True, 'locked_by': 'owner'}),
        ('c-nohost', None, 'demo', {}),
    )


class WindowTimes(fixture.GabbiFixture):
    """Maintenance window times from the database's clock, as ISO 8601
    UTC: ``$ENVIRON['IN_1H']`` .. ``IN_4H`` (hours from now), ``IN_40D``
    (past the 30-day bound) and ``AN_HOUR_AGO``."""

    OFFSETS = {'IN_1H': 1, 'IN_2H': 2, 'IN_3H': 3, 'IN_4H': 4, 'IN_40D': 40 * 24,
               'AN_HOUR_AGO': -1}

    def start_fixture(self):
        now = dbtime.db_time().replace(microsecond=0)
        for name, hours in self.OFFSETS.items():
            os.environ[name] = (now + datetime.timedelta(hours=hours)).isoformat() + 'Z'

    def stop_fixture(self):
        for name in self.OFFSETS:
            os.environ.pop(name, None)


class StatusEvents(fixture.GabbiFixture):
    """Transitions as the watcher stores them: every compute service of
    the file's APIFixture registered up, then h-up's heartbeat stale."""

    UP = transitions.State('UP', 'up', 'enabled')
    STALE = transitions.State('UNKNOWN', 'stale', 'enabled')

    def start_fixture(self):
        hosts = sorted({host for host, values in _current.services
                        if values.get('binary', service_db.COMPUTE_BINARY) == service_db.COMPUTE_BINARY
                        and not values.get('deleted')})
        time.sleep(0.01)        # the servers exist before the events
        events.hold_lease('gabbi', 60)
        for stale in ((), ('h-up',)):
            events.record_states('gabbi', 60, {
                (host, service_db.COMPUTE_BINARY): (self.STALE if host in stale else self.UP, None)
                for host in hosts}, lambda old, new: transitions.reason(
                    old and transitions.State(*old), new))

    def stop_fixture(self):
        pass
