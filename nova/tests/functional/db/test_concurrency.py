"""What real deployments run at once, against one database: nova-api with
several API workers and a second API process (on another port, its
clock five minutes fast) answer the same; two nova-compute processes racing
for the same servers build each exactly once."""
import collections
import concurrent.futures
import email.utils
import os
import re
import time

import fixtures
import testtools

from nova.tests.functional import fixtures as func
from nova.tests.functional.db import backend
from nova.tests.functional.db import skewed_clock

SKEW = 300


def _create(nova, count):
    resp = nova.request('POST', '/v2.1/servers', token=func.DEMO, body={'server': {
        'name': 'race', 'imageRef': func.IMAGE, 'flavorRef': '1',
        'min_count': count, 'max_count': count, 'return_reservation_id': True}})
    assert resp.status == 202, (resp.status, resp.raw)
    reservation = resp.json['reservation_id']
    servers = []

    def all_listed():
        servers[:] = nova.request(
            'GET', '/v2.1/servers/detail?all_tenants=1&reservation_id=%s' % reservation,
            version='2.16').json['servers']
        return len(servers) == count
    nova._wait(all_listed, 20, 'the servers of %s' % reservation)
    return [s['id'] for s in servers]


def _wait_active(nova, uuids, timeout=30):
    def all_active():
        detail = nova.request('GET', '/v2.1/servers/detail?all_tenants=1').json['servers']
        status = {s['id']: s['status'] for s in detail}
        return all(status.get(u) == 'ACTIVE' for u in uuids)
    nova._wait(all_active, timeout, '%d servers ACTIVE' % len(uuids))


class ApiProcessesTest(testtools.TestCase):
    """Three API workers in the all-in-one's nova-api, and a second
    nova-api (two workers, clock +5 min) on its own port, one MariaDB."""

    def setUp(self):
        super().setUp()
        self.nova, self.peek, _ = backend.start(
            self, 'mysql', hosts=3, api_workers=3, report_interval=1, service_down_time=3)
        port = func.free_port()
        self.second = 'http://127.0.0.1:%d' % port
        site = skewed_clock.sitecustomize_dir(self.useFixture(fixtures.TempDir()).path)
        env = dict(os.environ, PYTHONPATH=site, **{skewed_clock.ENV: str(SKEW)})
        backend.spawn(self, self.nova, 'second-api', ['nova.cmd.api'] + backend.config_files(
            self.nova, 'second-api.conf', '[api]\nbind_port = %d\nworkers = 2\n' % port),
            env=env)
        self.nova._wait(lambda: self.nova.request('GET', self.second + '/').status == 200,
                        30, 'the second nova-api')

    def _api_workers(self):
        return self.nova.api_worker_processes()

    def _answers(self, base):
        detail = self.nova.request('GET', base + '/v2.1/servers/detail?all_tenants=1',
                                   version='2.16').json['servers']
        services = self.nova.request('GET', base + '/v2.1/os-services',
                                     version='2.16').json['services']
        return ({s['id']: s['host_status'] for s in detail},
                {s['host']: (s['status'], s['state'], s['forced_down']) for s in services})

    def _many_answers(self, bases, each=12):
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            futures = [pool.submit(self._answers, base) for base in bases for _ in range(each)]
            return [f.result() for f in futures]

    def test_every_worker_of_both_apis_gives_the_same_answer(self):
        self.assertEqual(3, len(self._api_workers()))
        date = self.nova.request('GET', self.second + '/').header('Date')
        offset = email.utils.parsedate_to_datetime(date).timestamp() - time.time()
        self.assertGreater(offset, SKEW - 60, 'the second API runs 5 minutes fast')

        uuids = _create(self.nova, 6)
        _wait_active(self.nova, uuids)
        self.nova.service_action('disable', 'host-1')
        self.nova.service_action('force-down', 'host-2', forced_down=True)
        hosts = {s['id']: s['OS-EXT-SRV-ATTR:host'] for s in self.nova.request(
            'GET', '/v2.1/servers/detail?all_tenants=1').json['servers']}
        self.assertEqual({'host-1', 'host-2', 'host-3'}, set(hosts.values()))
        by_host = {'host-1': 'MAINTENANCE', 'host-2': 'DOWN', 'host-3': 'UP'}
        expected = {u: by_host[h] for u, h in hosts.items()}

        answers = self._many_answers([self.nova.url, self.second])
        self.assertEqual(expected, answers[0][0])
        self.assertEqual([answers[0]] * len(answers), answers)

        # host-3 stops reporting: the moment one API says so, so does the other.
        self.nova.freeze('host-3')
        self.nova._wait(lambda: 'UNKNOWN' in self._answers(self.nova.url)[0].values(),
                        15, 'host-3 UNKNOWN')
        second = self._answers(self.second)
        first = self._answers(self.nova.url)
        self.assertEqual(first, second)
        self.assertEqual({'UNKNOWN'}, {s for u, s in first[0].items()
                                       if hosts[u] == 'host-3'})
        self.nova.thaw('host-3')
        self.nova._wait(lambda: 'UNKNOWN' not in self._answers(self.second)[0].values(),
                        15, 'host-3 UP again on the second API')
        answers = self._many_answers([self.nova.url, self.second], each=4)
        self.assertEqual(expected, answers[0][0])
        self.assertEqual([answers[0]] * len(answers), answers)


class _ComputeRaceTests:
    """Two nova-compute processes serve host-1 (a restart overlapping the
    old process, or a mistake): each server must still be built once."""

    def test_racing_computes_build_each_server_once(self):
        nova, _, _ = backend.start(
            self, self.BACKEND, hosts=1, report_interval=1, service_down_time=3,
            extra_config='[compute]\nwork_poll_interval = 0.05\nfake_spawn_seconds = 0.1\n')
        _, second_log = backend.spawn(self, nova, 'second-compute', [
            'nova.cmd.compute', '--host', 'host-1'] + backend.config_files(
            nova, 'second-compute.conf', ''))
        nova._wait(lambda: 'started' in _read(second_log), 20, 'the second compute')

        uuids = _create(nova, 24)
        # each build is four write transactions (claim, its instance-action
        # event, ACTIVE, the event's end) from two racing processes: on a
        # loaded 2-core machine MariaDB took over 30 s for the 24
        first_log = os.path.join(nova.data_dir, 'logs', 'nova-compute-host-1.log')
        try:
            _wait_active(nova, uuids, timeout=120)
        except AssertionError as exc:
            errors = [line for path in (first_log, second_log)
                      for line in _read(path).splitlines() if ' ERROR ' in line]
            raise AssertionError('%s; the computes logged: %s' % (exc, errors[-20:]))
        built = {}

        def all_logged():
            # a compute logs 'built' after its ACTIVE commit and the end of
            # its build event (retried on a deadlock): ACTIVE comes first
            built['first'] = _built(_read(first_log))
            built['second'] = _built(_read(second_log))
            return set(uuids) <= set(built['first'] + built['second'])
        nova._wait(all_logged, 30, 'every build logged')
        first, second = built['first'], built['second']
        counts = collections.Counter(first + second)
        self.assertEqual(set(uuids), set(counts))
        self.assertEqual({1}, set(counts.values()), 'built twice: %s'
                         % [u for u, n in counts.items() if n > 1])
        # both took part, so the claims really raced
        self.assertTrue(first and second, (len(first), len(second)))


def _read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def _built(log):
    return re.findall(r'\bbuilt ([0-9a-f-]{36})', log)


class ComputeRaceMySQLTest(_ComputeRaceTests, testtools.TestCase):
    BACKEND = 'mysql'


class ComputeRacePostgreSQLTest(_ComputeRaceTests, testtools.TestCase):
    BACKEND = 'postgresql'

