"""An API host whose clock is five minutes off reports exactly what a
correct one reports, on every backend: liveness is judged on the database's
clock, never on the process's."""
import datetime
import json
import uuid as uuidlib

import sqlalchemy as sa

from nova.db import dbtime

from nova.db import instances as instance_db

from nova.db import services as service_db
from nova.db import engine
from nova.db import models
from nova import servicegroup
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends
from nova.tests.functional.db import skewed_clock

SKEWS = (300, -300)
EXPECTED = {'up-host': 'UP', 'stale-host': 'UNKNOWN', 'maint-host': 'MAINTENANCE',
            'down-host': 'DOWN', None: ''}


class _SkewTests:

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Policy())
        self.api = nova_fixtures.API()
        services = {h: service_db.service_register(h, service_db.COMPUTE_BINARY)
                    for h in EXPECTED if h is not None}
        for service in services.values():
            service_db.service_heartbeat(service['id'])
        self._age('stale-host', datetime.timedelta(seconds=120))
        service_db.service_update('maint-host', service_db.COMPUTE_BINARY, disabled=True)
        service_db.service_update('down-host', service_db.COMPUTE_BINARY, forced_down=True)
        self.servers = {}
        rows = []
        for host in EXPECTED:
            uuid = str(uuidlib.uuid4())
            self.servers[uuid] = host
            rows.append(dict(
                uuid=uuid, display_name=str(host), hostname='vm', project_id='p1',
                user_id='u1', flavor_id='1', reservation_id='r-1', metadata='{}',
                host=host, node=host, vm_state='active' if host else 'error'))
        instance_db.instances_create(rows)

    def _age(self, host, age):
        with engine.writer() as conn:
            conn.execute(sa.update(models.services)
                         .where(models.services.c.host == host)
                         .values(last_seen_up=dbtime.db_time() - age))

    def _get(self, path):
        resp = self.api.request('GET', path, version='2.16')
        self.assertEqual(200, resp.status_int, resp.body)
        return json.loads(resp.body)

    def _answers(self):
        """Every place host_status or liveness shows, as the API renders it."""
        detail = self._get('/v2.1/servers/detail?all_tenants=1')['servers']
        shown = {uuid: self._get('/v2.1/servers/%s' % uuid)['server']['host_status']
                 for uuid in self.servers}
        services = self._get('/v2.1/os-services')['services']
        return ({s['id']: s['host_status'] for s in detail}, shown,
                {s['host']: s['state'] for s in services})

    def test_skewed_api_host_reports_the_same_host_status(self):
        expected = {uuid: EXPECTED[host] for uuid, host in self.servers.items()}
        correct = self._answers()
        self.assertEqual(expected, correct[0])
        self.assertEqual(expected, correct[1])
        for seconds in SKEWS:
            with skewed_clock.SkewedClock(seconds):
                process_now = datetime.datetime.utcnow()
                skewed = self._answers()
            self.assertGreater(abs(process_now - dbtime.db_time()), datetime.timedelta(minutes=4))
            self.assertEqual(correct, skewed, 'clock skewed by %+d s' % seconds)

    def test_a_judgement_on_the_process_clock_would_have_been_wrong(self):
        # The control: under the same skew, the heartbeat's age measured on
        # the process's own clock is beyond service_down_time (the healthy
        # host would look down); the database's judgement is not fooled.
        row = service_db.service_list(host='up-host')[0]
        group = servicegroup.API()
        with skewed_clock.SkewedClock(SKEWS[0]):
            local_age = datetime.datetime.utcnow() - row['last_seen_up']
            self.assertGreater(abs(local_age), datetime.timedelta(seconds=60))
            self.assertTrue(group.service_is_up(service_db.service_list(host='up-host')[0]))

    def test_heartbeat_from_a_skewed_compute_is_up(self):
        stale = service_db.service_list(host='stale-host')[0]
        for seconds in SKEWS:
            self._age('stale-host', datetime.timedelta(seconds=120))
            with skewed_clock.SkewedClock(seconds):
                self.assertTrue(service_db.service_heartbeat(stale['id']))
            uuid = [u for u, h in self.servers.items() if h == 'stale-host'][0]
            self.assertEqual('UP', self._get('/v2.1/servers/%s' % uuid)['server']['host_status'])


class ClockSkewSQLiteTest(_SkewTests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class ClockSkewMySQLTest(_SkewTests, backends.BackendTestCase):
    BACKEND = 'mysql'


class ClockSkewPostgreSQLTest(_SkewTests, backends.BackendTestCase):
    BACKEND = 'postgresql'
