"""Nova 34's captures of os-aggregates and flavor extra specs
(reference/nova-34/v2.73/), replayed in the order they were made against
the same cases (h-up running one server, the spare hosts h-spare1..3,
h-ghost with a server but no service, flavor 3 with two extra specs):
same status, same keys in the same order, same values (ids and times
excepted), same faults.

The extra-spec captures were made at 2.75 or later; extra specs answer
alike at every version, so they are replayed at our maximum and their
version headers are not compared. Two cases are Nova's own: add_host
while Placement is unreachable (500; there is no Placement here, so the
host is added, as Nova adds it), and 2.86's value validation.

The replay runs on SQLite, MariaDB/MySQL and PostgreSQL (duplicates are
found by each backend's unique constraints)."""
import json
import os
import re

import sqlalchemy as sa

from nova.api.openstack import api_version_request as avr
from nova.db import engine
from nova.db import migration
from nova.db import models
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import json_diff
from nova.tests.functional.db import backends
from nova.tests.functional import reference

SUBDIR = 'v2.73'
NOVA_ONLY = ('extra-specs-create-bad-value-2.86', 'extra-specs-create-unknown-hw-key-2.86')
PLACEMENT_DOWN = 'aggregates-add-host-no-placement-2.41'
# the order the capture script ran them in (its README's table)
_ROW = re.compile(r'^\| `((?:aggregates|extra-specs)-[^`]+)` \|', re.M)


def _in_capture_order():
    with open(os.path.join(reference.directory(), SUBDIR, 'README.md')) as f:
        names = _ROW.findall(f.read())
    return [name for name in names if name not in NOVA_ONLY]


class _Replay:
    # a new database per test: the replay expects ids from 1
    FRESH_DATABASE = True

    def setUp(self):
        super().setUp()
        migration.db_sync()
        self.policy = self.useFixture(nova_fixtures.Policy())
        self.api = nova_fixtures.API()
        for host in ('h-up', 'h-spare1', 'h-spare2', 'h-spare3'):
            nova_fixtures.add_service(host)
        nova_fixtures.add_server('c-up', host='h-up')
        nova_fixtures.add_server('c-ghost', host='h-ghost')
        with engine.writer() as conn:
            flavor_pk = conn.scalar(sa.select(models.flavors.c.id).where(
                models.flavors.c.flavorid == '3'))
            conn.execute(sa.insert(models.flavor_extra_specs), [
                {'flavor_id': flavor_pk, 'key': 'hw:cpu_policy', 'value': 'dedicated'},
                {'flavor_id': flavor_pk, 'key': 'hw:mem_page_size', 'value': 'large'}])

    def _replay(self, name):
        capture = reference.load(os.path.join(SUBDIR, name + '.json'))
        request = capture['request']
        headers = dict(request['headers'])
        later = name.startswith('extra-specs-')
        if later:
            for header in list(headers):
                if header.lower() in ('openstack-api-version', 'x-openstack-nova-api-version'):
                    headers[header] = 'compute %s' % avr.MAX_VERSION
        raw = request.get('body')
        ours = self.api.request(request['method'], request['path'], token=None,
                                headers=headers, body=raw)
        if name == PLACEMENT_DOWN:
            return ['%s: status %s' % (name, ours.status_int)] if ours.status_int != 200 else []
        problems = []
        if ours.status_int != capture['status']:
            problems.append('status %s, expected %s' % (ours.status_int, capture['status']))
        if not later:
            expected = reference.compared_headers(capture['headers'], nova=True)
            actual = reference.compared_headers(ours.headerlist)
            if actual != expected:
                problems.append('headers %s, expected %s' % (actual, expected))
        expected = reference.normalize(reference.body(capture), nova=True)
        actual = reference.normalize(json.loads(ours.body) if ours.body else None)
        problems += json_diff.differences(expected, actual)
        return ['%s: %s' % (name, p) for p in problems]

    def test_nul_is_refused_on_every_backend(self):
        # PostgreSQL cannot keep NUL in text: Nova answers 500 there
        resp = self.api.request('POST', '/v2.1/os-aggregates',
                                body={'aggregate': {'name': 'agg-nul'}})
        path = '/v2.1/os-aggregates/%d/action' % resp.json['aggregate']['id']
        for method, url, body, status in (
                ('POST', path, {'set_metadata': {'metadata': {'k': 'a\x00b'}}}, 400),
                ('POST', '/v2.1/flavors/3/os-extra_specs', {'extra_specs': {'k': 'a\x00b'}},
                 400),
                ('DELETE', '/v2.1/flavors/3/os-extra_specs/a%00b', None, 404),
                ('GET', '/v2.1/flavors/a%00b/os-extra_specs', None, 404)):
            resp = self.api.request(method, url, body=body)
            self.assertEqual(status, resp.status_int, (url, resp.body))

    def test_a_deleted_compute_leaves_its_aggregates(self):
        agg = self.api.request('POST', '/v2.1/os-aggregates',
                               body={'aggregate': {'name': 'agg-del'}}).json['aggregate']['id']
        path = '/v2.1/os-aggregates/%d' % agg
        self.assertEqual(200, self.api.request('POST', path + '/action', body={
            'add_host': {'host': 'h-spare3'}}).status_int)
        services = self.api.request('GET', '/v2.1/os-services?host=h-spare3',
                                    version='2.53').json['services']
        resp = self.api.request('DELETE', '/v2.1/os-services/' + services[0]['id'],
                                version='2.53')
        self.assertEqual(204, resp.status_int, resp.body)
        self.assertEqual([], self.api.request('GET', path).json['aggregate']['hosts'])
        self.assertEqual(200, self.api.request('DELETE', path).status_int)

    def test_host_names_are_exact_on_every_backend(self):
        agg = self.api.request('POST', '/v2.1/os-aggregates',
                               body={'aggregate': {'name': 'agg-case'}}).json['aggregate']['id']
        resp = self.api.request('POST', '/v2.1/os-aggregates/%d/action' % agg,
                                body={'add_host': {'host': 'H-SPARE1'}})
        self.assertEqual(404, resp.status_int, resp.body)

    def test_captures_in_order(self):
        names = _in_capture_order()
        self.assertGreater(len(names), 70)
        problems = []
        for name in names:
            problems += self._replay(name)
        self.assertEqual([], problems)


class ReferenceAggregatesSQLiteTest(_Replay, backends.BackendTestCase):
    BACKEND = 'sqlite'


class ReferenceAggregatesMySQLTest(_Replay, backends.BackendTestCase):
    BACKEND = 'mysql'


class ReferenceAggregatesPostgreSQLTest(_Replay, backends.BackendTestCase):
    BACKEND = 'postgresql'


class ConcurrentZonesTest(backends.BackendTestCase):
    """One host put into two aggregates of different zones at once, over
    and over, by two threads: it ends in one of them, never in both."""
    BACKEND = 'mysql'

    def test_a_host_never_lands_in_two_zones(self):
        import threading
        self.useFixture(nova_fixtures.Policy())
        api = nova_fixtures.API()
        for round_ in range(10):
            host = 'h-race-%d' % round_
            nova_fixtures.add_service(host)
            ids = [api.request('POST', '/v2.1/os-aggregates', body={'aggregate': {
                'name': 'race-%d-%s' % (round_, zone), 'availability_zone': zone}}
            ).json['aggregate']['id'] for zone in ('az-1', 'az-2')]
            statuses = []
            barrier = threading.Barrier(2)

            def add(aggregate_id, host=host, barrier=barrier, statuses=statuses):
                barrier.wait()
                statuses.append(api.request(
                    'POST', '/v2.1/os-aggregates/%d/action' % aggregate_id,
                    body={'add_host': {'host': host}}).status_int)
            threads = [threading.Thread(target=add, args=(i,)) for i in ids]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            self.assertEqual([200, 409], sorted(statuses), round_)


class ConcurrentZonesPostgreSQLTest(ConcurrentZonesTest):
    BACKEND = 'postgresql'
