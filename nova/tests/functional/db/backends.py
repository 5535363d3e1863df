"""Throwaway databases on SQLite, MariaDB/MySQL and PostgreSQL for tests.

MariaDB and PostgreSQL are found as oslo.db's opportunistic tests find them
(``oslo_db.sqlalchemy.provision``): the ``openstack_citest`` user (password
``openstack_citest``) on localhost, or the admin URLs listed in
``OS_TEST_DBAPI_ADMIN_CONNECTION`` (``;``-separated). Each test class (or
functional test) gets its own uniquely named database, dropped afterwards,
so parallel stestr workers never meet.

Where a server is unreachable the tests skip and say why; with
``NOVA_TEST_REQUIRE_BACKENDS=1`` (CI sets it) they fail instead, so a run
can never pass by skipping.
"""
import os
import tempfile
import uuid

import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import provision
import testtools

import nova.conf
from nova.db import engine
from nova.db import migration
from nova.db import models

CONF = nova.conf.CONF
REQUIRE_ENV = 'NOVA_TEST_REQUIRE_BACKENDS'
NAMES = {'sqlite': 'SQLite', 'mysql': 'MariaDB/MySQL', 'postgresql': 'PostgreSQL'}
HOW_TO_ENABLE = ('create the openstack_citest user as .ci/run does, or set '
                 'OS_TEST_DBAPI_ADMIN_CONNECTION')


class Unavailable(Exception):
    pass


def required():
    return os.environ.get(REQUIRE_ENV) == '1'


def unavailable(test, reason):
    """Skip ``test`` (fail it when backends are required)."""
    if required():
        test.fail('%s (%s=1 makes this a failure)' % (reason, REQUIRE_ENV))
    test.skipTest(reason)


class Database:
    """One new, uniquely named database on ``backend``; drop() removes it."""

    def __init__(self, backend):
        self.backend = backend
        self.name = 'nova_test_%s' % uuid.uuid4().hex[:12]
        if backend == 'sqlite':
            fd, self._path = tempfile.mkstemp(prefix=self.name, suffix='.sqlite')
            os.close(fd)
            self.url = sa.engine.make_url('sqlite:///' + self._path)
            return
        try:
            self._server = provision.Backend.backend_for_database_type(backend)
        except db_exc.BackendNotAvailable as exc:
            raise Unavailable('%s is not reachable: %s; %s'
                              % (NAMES[backend], exc, HOW_TO_ENABLE))
        self._server.create_named_database(self.name)
        self.url = self._server.provisioned_database_url(self.name)
        if backend == 'mysql':
            self.url = self.url.update_query_dict({'charset': 'utf8mb4'})

    @property
    def connection(self):
        """The URL as ``[database] connection`` text (password included)."""
        return self.url.render_as_string(hide_password=False)

    @property
    def server_address(self):
        """(host, port) of the database server, for a proxy in front of it."""
        default = {'mysql': 3306, 'postgresql': 5432}[self.backend]
        host = self.url.host or 'localhost'
        return ('127.0.0.1' if host == 'localhost' else host), (self.url.port or default)

    def via(self, host, port):
        """This database's connection text through another address."""
        return self.url.set(host=host, port=port).render_as_string(hide_password=False)

    def drop(self):
        if self.backend == 'sqlite':
            for suffix in ('', '-wal', '-shm'):
                try:
                    os.unlink(self._path + suffix)
                except FileNotFoundError:
                    pass
        else:
            self._server.drop_named_database(self.name, conditional=True)


def override(test, name, value, group=None):
    """CONF.set_override undone at cleanup. (oslo.config's Config fixture
    would also un-parse the global CONF other in-process tests rely on.)"""
    CONF.set_override(name, value, group=group)
    test.addCleanup(CONF.clear_override, name, group=group)


def create_or_skip(test, backend):
    try:
        database = Database(backend)
    except Unavailable as exc:
        unavailable(test, str(exc))
    test.addCleanup(database.drop)
    return database


class BackendTestCase(testtools.TestCase):
    """In-process tests on one backend (``BACKEND``): the process's DB API
    points at a migrated database of the class's own, emptied (flavors
    aside) before each test; with ``FRESH_DATABASE = True`` each test gets
    a new, empty, unmigrated database instead."""

    BACKEND = None
    FRESH_DATABASE = False
    _database = None
    _unavailable = None

    @classmethod
    def tearDownClass(cls):
        engine.reset()
        if cls._database is not None:
            cls._database.drop()
            cls._database = None
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        if self.FRESH_DATABASE:
            self.database = create_or_skip(self, self.BACKEND)
        else:
            self.database = self._class_database()
        override(self, 'connection', self.database.connection, group='database')
        engine.reset()
        self.addCleanup(engine.reset)
        if self.FRESH_DATABASE:
            return
        if migration.db_version() is None:
            migration.db_sync()
        else:
            self._empty_tables()

    def _class_database(self):
        cls = type(self)
        if cls._unavailable is None and cls._database is None:
            try:
                cls._database = Database(self.BACKEND)
            except Unavailable as exc:
                cls._unavailable = str(exc)
        if cls._unavailable is not None:
            unavailable(self, cls._unavailable)
        return cls._database

    @staticmethod
    def _empty_tables():
        with engine.writer() as conn:
            for table in (models.instance_faults, models.instances, models.services,
                          models.host_status_events, models.host_status_states,
                          models.host_status_leases, models.host_maintenance_windows,
                          models.host_maintenance_locks, models.migrations,
                          models.flavor_extra_specs, models.aggregate_hosts,
                          models.aggregate_metadata, models.aggregates):
                conn.execute(sa.delete(table))
