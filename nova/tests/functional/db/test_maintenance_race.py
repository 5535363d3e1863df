"""Racing HTTP requests for overlapping maintenance windows of one host,
through the real nova-api (two gunicorn workers, so the requests run in
different processes) on MariaDB and PostgreSQL: one window is stored, every
other request answers 409, and nothing else changes."""
import concurrent.futures
import datetime
import threading

import sqlalchemy as sa
import testtools

from nova.db import models
from nova.tests.functional.db import backend

RACERS = 6
PATH = '/v2.1/os-host-maintenance'


class _RaceTests:
    BACKEND = None

    def test_racing_overlapping_windows(self):
        nova, peek, _ = backend.start(self, self.BACKEND, hosts=1, api_workers=2,
                                      report_interval=1, service_down_time=20)
        start = peek.now() + datetime.timedelta(hours=1)
        barrier = threading.Barrier(RACERS)

        def post(i):
            begin = start + datetime.timedelta(minutes=i)
            body = {'maintenance': {'host': 'host-1', 'start': begin.isoformat() + 'Z',
                                    'end': (begin + datetime.timedelta(hours=1)).isoformat()
                                    + 'Z'}}
            barrier.wait(30)
            return nova.request('POST', PATH, body=body)
        with concurrent.futures.ThreadPoolExecutor(RACERS) as pool:
            answers = list(pool.map(post, range(RACERS)))
        self.assertEqual([201] + [409] * (RACERS - 1),
                         sorted(a.status for a in answers), [a.raw for a in answers])
        for answer in answers:
            if answer.status == 409:
                self.assertIn('windows of one host may not overlap',
                              answer.json['conflictingRequest']['message'])
        with peek.engine.connect() as conn:
            stored = conn.execute(sa.select(models.host_maintenance_windows)).all()
        self.assertEqual(1, len(stored))
        self.assertEqual([w['id'] for w in nova.request('GET', PATH).json['maintenances']],
                         [a.json['maintenance']['id'] for a in answers if a.status == 201])


class MySQLRaceTest(_RaceTests, testtools.TestCase):
    BACKEND = 'mysql'


class PostgreSQLRaceTest(_RaceTests, testtools.TestCase):
    BACKEND = 'postgresql'
