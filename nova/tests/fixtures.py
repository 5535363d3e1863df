"""In-process fixtures: a migrated SQLite file, a policy file, the WSGI app."""
import contextlib
import datetime
import json
import os
import uuid as uuidlib

import fixtures
import testtools
import sqlalchemy as sa
import webob

import nova.conf
from nova.api.openstack import client_documents
from nova.db import flavors as flavor_db
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import migration
from nova.db.dbtime import db_now
from nova.db.models import services
from nova import policy

CONF = nova.conf.CONF
IMAGE = client_documents.IMAGES[0]['id']      # cirros, the one image served
# The README's unknown-only example: project members see host_status only
# while it is UNKNOWN (their host stopped reporting), never the other values.
UNKNOWN_ONLY_POLICY = {
    'os_compute_api:servers:show:host_status:unknown-only': 'rule:project_reader_or_admin',
}


class Database(fixtures.Fixture):
    """A fresh, migrated database (SQLite file unless ``connection`` given)."""

    def __init__(self, connection=None):
        super().__init__()
        self.connection = connection

    def _setUp(self):
        if self.connection is None:
            path = self.useFixture(fixtures.TempDir()).path
            self.connection = 'sqlite:///%s' % os.path.join(path, 'nova.sqlite')
        CONF.set_override('connection', self.connection, group='database')
        self.addCleanup(CONF.clear_override, 'connection', group='database')
        engine.reset()
        self.addCleanup(engine.reset)
        migration.db_sync()


@contextlib.contextmanager
def transactions_sent():
    """The statements sent meanwhile, one list per transaction begun (the
    BEGIN oslo.db sends on SQLite as one begins is in none)."""
    transactions = []

    def begin(conn):
        transactions.append([])

    def statement(conn, cursor, text, *args):
        if conn.get_transaction() is not None:
            transactions[-1].append(text)
    listeners = (('begin', begin), ('before_cursor_execute', statement))
    for name, listener in listeners:
        sa.event.listen(engine.get_engine(), name, listener)
    try:
        yield transactions
    finally:
        for name, listener in listeners:
            sa.event.remove(engine.get_engine(), name, listener)


def selects(statements):
    return sum(text.lstrip().upper().startswith('SELECT') for text in statements)


class Policy(fixtures.Fixture):
    """Defaults in code plus optional overrides written to a policy.yaml."""

    def __init__(self, rules=None):
        super().__init__()
        self.rules = rules or {}

    def _setUp(self):
        self.path = os.path.join(self.useFixture(fixtures.TempDir()).path, 'policy.yaml')
        self.set_rules(self.rules)
        CONF.set_override('policy_file', self.path, group='oslo_policy')
        self.addCleanup(CONF.clear_override, 'policy_file', group='oslo_policy')
        policy.reset()
        self.addCleanup(policy.reset)

    def set_rules(self, rules):
        with open(self.path, 'w') as f:
            json.dump(rules, f)
        policy.reset()


def add_service(host, binary='nova-compute', seconds_ago=0, disabled=False,
                forced_down=False, deleted=False, disabled_reason=None):
    """A service row whose last heartbeat was ``seconds_ago`` on the DB clock.

    A live row is registered and set as nova-compute and an operator would
    (db.api.service_register, service_update); SQL writes only what no
    API call can: a heartbeat in the past, and a soft-deleted row.
    """
    if deleted:
        return _add_deleted_service(host, binary, disabled, forced_down, disabled_reason)
    service_id = service_db.service_register(host, binary, topic='compute')['id']
    if disabled or forced_down or disabled_reason:
        service_db.service_update(host, binary, disabled=disabled, forced_down=forced_down,
                                  disabled_reason=disabled_reason)
    with engine.writer() as conn:
        seen = conn.scalar(sa.select(db_now())) - datetime.timedelta(seconds=seconds_ago)
        conn.execute(sa.update(services).where(services.c.id == service_id).values(
            report_count=1, last_seen_up=seen, created_at=seen, updated_at=seen))
    return service_id


def _add_deleted_service(host, binary, disabled, forced_down, disabled_reason):
    """An operator's deleted row, kept as history (deleted = its own id)."""
    with engine.writer() as conn:
        now = conn.scalar(sa.select(db_now()))
        result = conn.execute(sa.insert(services).values(
            uuid=str(uuidlib.uuid4()), host=host, binary=binary, topic='compute',
            report_count=1, disabled=disabled, disabled_reason=disabled_reason,
            forced_down=forced_down, last_seen_up=now, created_at=now,
            updated_at=now, deleted=0))
        service_id = result.inserted_primary_key[0]
        conn.execute(sa.update(services).where(services.c.id == service_id)
                     .values(deleted=service_id, deleted_at=now))
    return service_id


def add_server(name, host=None, project_id='demo', user_id='demo', vm_state=None,
               task_state=None, tags=(), **values):
    """An instance row as nova-compute would leave it (ACTIVE when on a host),
    with ``tags``."""
    uuid = str(uuidlib.uuid4())
    if vm_state is None:
        vm_state = 'active' if host else 'error'
    row = dict(
        uuid=uuid, display_name=name, hostname=name, project_id=project_id,
        user_id=user_id, host=host, node=host,
        availability_zone='nova' if host else '', vm_state=vm_state,
        task_state=task_state, power_state=1 if vm_state == 'active' else 0,
        progress=0, image_ref=IMAGE, flavor_id='1', reservation_id='r-test0000',
        launch_index=0, metadata='{}',
        launched_at=db_now() if vm_state == 'active' else None)
    row.update(instance_db.flavor_copy(flavor_db.flavor_get(values.get('flavor_id', '1'))))
    row.update(values)
    instance_db.instances_create([row], tags)
    return uuid


class API:
    """The real WSGI app called in-process (no sockets)."""

    def __init__(self, auth_strategy='noauth2'):
        from nova.api.openstack import app
        self.app = app.ComputeAPI(auth_strategy)

    def request(self, method, path, token='admin:admin', version=None, body=None,
                headers=None):
        req = webob.Request.blank(path, method=method, base_url='http://127.0.0.1:8774')
        if token:
            req.headers['X-Auth-Token'] = token
        if version:
            req.headers['OpenStack-API-Version'] = 'compute %s' % version
        if body is not None:
            req.body = json.dumps(body).encode()
            req.content_type = 'application/json'
        for name, value in (headers or {}).items():
            req.headers[name] = value
        return req.get_response(self.app)


class APITestCase(testtools.TestCase):
    """The real WSGI app in-process on a fresh database and policy file."""

    def setUp(self):
        super().setUp()
        self.useFixture(Database())
        self.policy = self.useFixture(Policy())
        self.api = API()
