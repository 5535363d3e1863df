"""GET /os-migrations replayed against OpenStack Nova 34's captures
(../shared/reference/nova-34/v2.73/migrations-*): the reference cloud's
six evacuations are seeded as they were (ids, uuids, hosts, statuses,
times), and every capture of the list, its filters, paging and faults is
compared with our answer key for key, in order.

What is not compared: the reference cloud also held a live migration, a
resize and a cold migration, which this service never records (they are
left out of the captures' lists), and its evacuations were written
straight into Nova's database with a dest_host address and flavor ids,
which Nova's own evacuate leaves null (evacuate-down-host-migrations-2.59
shows one), as ours always does.
"""
import datetime
import urllib.parse

import sqlalchemy as sa

from nova.db import engine
from nova.db import evacuations
from nova.db.models import migrations
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import json_diff
from nova.tests.functional import reference

_NOT_RECORDED = {'dest_host': None, 'old_instance_type_id': None,
                 'new_instance_type_id': None}
# the captures that list migrations or refuse a query, at versions served
CAPTURES = (
    'migrations-list-2.1.json', 'migrations-list-2.23.json',
    'migrations-filter-instance_uuid-2.23.json', 'migrations-filter-type-evacuation-2.23.json',
    'migrations-filter-source_compute-2.23.json', 'migrations-filter-status-error-2.23.json',
    'migrations-filter-status-accepted-2.23.json', 'migrations-filter-host-2.23.json',
    'migrations-filter-hidden-2.23.json', 'migrations-filter-type-evacuation-2.1.json',
)


def _seed_rows():
    """The reference cloud's evacuations, from its 2.59 listing."""
    rows = []
    for item in reference.load('v2.73/migrations-list-2.59.json')['body_json']['migrations']:
        if item['migration_type'] != 'evacuation':
            continue
        row = {key: item[key] for key in (
            'id', 'uuid', 'source_compute', 'dest_compute', 'source_node', 'dest_node',
            'instance_uuid', 'status', 'migration_type')}
        for key in ('created_at', 'updated_at'):
            row[key] = datetime.datetime.fromisoformat(item[key])
        row['deleted'] = 0
        rows.append(row)
    return rows


def _expected(capture):
    """The capture's body as this service answers it: evacuations only,
    no links, nothing recorded that an evacuation does not record."""
    body = reference.body(capture)
    if 'migrations' not in body:
        return body
    kept = [dict(m, **{k: v for k, v in _NOT_RECORDED.items() if k in m})
            for m in body['migrations'] if m.get('migration_type', 'evacuation') == 'evacuation'
            and m['id'] <= 6]
    for migration in kept:
        migration.pop('links', None)
    return dict(body, migrations=kept)


class _Response:
    """A webob response as reference.status_and_header_problems reads one."""

    def __init__(self, resp):
        self.status = resp.status_int
        self.headers = resp.headerlist


class MigrationsTestCase(nova_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        with engine.writer() as conn:
            conn.execute(sa.insert(migrations), _seed_rows())

    def replay(self, name):
        capture = reference.load('v2.73/' + name)
        request = capture['request']
        ours = self.api.request(request['method'], request['path'], token=None,
                                headers=dict(request['headers']))
        return capture, ours

    def problems(self, name, ordered=True):
        capture, ours = self.replay(name)
        problems = reference.status_and_header_problems(capture, _Response(ours))
        expected, actual = _expected(capture), ours.json
        if not ordered:
            # below 2.59 Nova does not sort; ours is newest first
            expected = dict(expected, migrations=sorted(expected['migrations'],
                                                        key=lambda m: m['id']))
            actual = dict(actual, migrations=sorted(actual['migrations'],
                                                    key=lambda m: m['id']))
        problems += json_diff.differences(expected, actual)
        return ['%s: %s' % (name, p) for p in problems]


class MigrationsListTest(MigrationsTestCase):

    def test_captures_below_2_59(self):
        problems = []
        for name in CAPTURES:
            problems += self.problems(name, ordered=False)
        self.assertEqual([], problems)

    def test_member_is_refused(self):
        resp = self.api.request('GET', '/v2.1/os-migrations', token='demo:demo')
        self.assertEqual(403, resp.status_int)
        self.assertEqual("Policy doesn't allow os_compute_api:os-migrations:index to be "
                         "performed.", resp.json['forbidden']['message'])

    def test_unknown_parameters_and_paging_are_ignored_below_2_59(self):
        for query in ('bogus=1', 'limit=1&marker=nope', 'changes-since=soon'):
            resp = self.api.request('GET', '/v2.1/os-migrations?' + query, version='2.58')
            self.assertEqual(200, resp.status_int, query)
            self.assertEqual(6, len(resp.json['migrations']), query)
            self.assertNotIn('migrations_links', resp.json)
            self.assertNotIn('uuid', resp.json['migrations'][0])

    def test_host_filter_wins_over_source_compute(self):
        resp = self.api.request('GET', '/v2.1/os-migrations?host=h-up&source_compute=h-stale',
                                version='2.23')
        self.assertEqual([1, 2, 3], sorted(m['id'] for m in resp.json['migrations']))


class NewEvacuationTest(nova_fixtures.APITestCase):
    """What InstanceHA reads right after asking for an evacuation: the new
    migration, accepted, with no updated_at (and so outside changes-since)."""

    def test_an_accepted_evacuation_has_no_updated_at(self):
        nova_fixtures.add_service('h-up')
        nova_fixtures.add_service('h-forced', forced_down=True)
        server = nova_fixtures.add_server('c-forced', host='h-forced')
        row = self.api.request('GET', '/v2.1/servers/' + server).json['server']
        self.assertEqual('h-forced', row['OS-EXT-SRV-ATTR:host'])
        resp = self.api.request('POST', '/v2.1/servers/%s/action' % server,
                                body={'evacuate': {}}, version='2.29')
        self.assertEqual(200, resp.status_int, resp.body)
        listed = self.api.request('GET', '/v2.1/os-migrations?instance_uuid=' + server,
                                  version='2.23').json['migrations']
        self.assertEqual(1, len(listed))
        migration = listed[0]
        self.assertEqual(('accepted', 'evacuation', 'h-forced', 'h-up', None, None),
                         (migration['status'], migration['migration_type'],
                          migration['source_compute'], migration['dest_compute'],
                          migration['dest_node'], migration['updated_at']))
        self.assertRegex(migration['created_at'], r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$')
        # the first change writes it
        self.assertTrue(evacuations.claim(evacuations.for_instance(server)[0], 'h-up'))
        migration = self.api.request('GET', '/v2.1/os-migrations?' + urllib.parse.urlencode(
            {'instance_uuid': server}), version='2.23').json['migrations'][0]
        self.assertEqual('pre-migrating', migration['status'])
        self.assertIsNotNone(migration['updated_at'])


    def test_instanceha_reads_no_open_evacuation_yet_cannot_force_the_host_up(self):
        """Red Hat InstanceHA's check before it forces a host up, as it
        sends it (2.73, changes-since with a +00:00 offset, limit as text):
        an unclaimed evacuation is outside changes-since, as in Nova, so the
        list is empty; the force-up is refused all the same (Nova would
        take it), and InstanceHA retries at its next poll
        (benchmarks/README.rst, "InstanceHA, by hand")."""
        nova_fixtures.add_service('h-up')
        nova_fixtures.add_service('h-forced', forced_down=True)
        server = nova_fixtures.add_server('c-forced', host='h-forced')
        resp = self.api.request('POST', '/v2.1/servers/%s/action' % server,
                                body={'evacuate': {}}, version='2.73')
        self.assertEqual(200, resp.status_int, resp.body)
        since = (datetime.datetime.now(datetime.timezone.utc)
                 - datetime.timedelta(minutes=7)).isoformat()
        query = '/v2.1/os-migrations?' + urllib.parse.urlencode({
            'changes-since': since, 'limit': '1000', 'migration_type': 'evacuation',
            'source_compute': 'h-forced'})
        resp = self.api.request('GET', query, version='2.73')
        self.assertEqual((200, []), (resp.status_int, resp.json['migrations']))
        uuid = [s for s in self.api.request('GET', '/v2.1/os-services', version='2.73')
                .json['services'] if s['host'] == 'h-forced'][0]['id']
        resp = self.api.request('PUT', '/v2.1/os-services/' + uuid, version='2.73',
                                body={'forced_down': False})
        self.assertEqual(400, resp.status_int, resp.body)
        self.assertIn('still in progress', resp.json['badRequest']['message'])
        self.assertTrue([s for s in self.api.request('GET', '/v2.1/os-services',
                                                     version='2.73').json['services']
                         if s['host'] == 'h-forced'][0]['forced_down'])
        # claimed: listed from then on, open, and the force-up still refused
        self.assertTrue(evacuations.claim(evacuations.for_instance(server)[0], 'h-up'))
        listed = self.api.request('GET', query, version='2.73').json['migrations']
        self.assertEqual([('pre-migrating', server)],
                         [(m['status'], m['instance_uuid']) for m in listed])
        resp = self.api.request('PUT', '/v2.1/os-services/' + uuid, version='2.73',
                                body={'forced_down': False})
        self.assertEqual(400, resp.status_int, resp.body)

class MigrationsPagingTest(MigrationsTestCase):
    """2.59 and 2.66: uuid, newest first, paging, changes-since/-before,
    unknown parameters refused."""

    CAPTURES = (
        'migrations-list-2.59.json', 'migrations-list-2.66.json',
        'migrations-changes-since-2.59.json', 'migrations-changes-since-bad-2.59.json',
        'migrations-unknown-param-2.59.json', 'migrations-changes-before-2.66.json',
        'migrations-changes-before-2.65.json', 'migrations-changes-before-lt-since-2.66.json',
        'migrations-marker-unknown-2.59.json',
    )
    BELOW_2_59 = ('migrations-unknown-param-2.58.json', 'migrations-marker-2.58.json')

    def test_captures(self):
        problems = []
        for name in self.CAPTURES:
            problems += self.problems(name)
        for name in self.BELOW_2_59:
            problems += self.problems(name, ordered=False)
        self.assertEqual([], problems)

    def test_pages_follow_the_next_link(self):
        path, seen = '/v2.1/os-migrations?limit=2', []
        while path:
            resp = self.api.request('GET', path, version='2.59')
            self.assertEqual(200, resp.status_int, resp.body)
            seen.append([m['id'] for m in resp.json['migrations']])
            links = resp.json.get('migrations_links')
            path = links and links[0]['href'].replace('http://127.0.0.1:8774', '')
            if links:
                marker = resp.json['migrations'][-1]['uuid']
                self.assertEqual('http://127.0.0.1:8774/v2.1/os-migrations?limit=2&marker='
                                 + marker, links[0]['href'])
        # a full last page links to an empty one, as Nova's
        self.assertEqual([[6, 5], [4, 3], [2, 1], []], seen)

    def test_limit_and_filters_together(self):
        resp = self.api.request(
            'GET', '/v2.1/os-migrations?instance_uuid=fbc4736d-3d70-58cf-9fe5-8cec58ec30be'
            '&migration_type=evacuation&limit=1', version='2.66')
        self.assertEqual([4], [m['id'] for m in resp.json['migrations']])
        self.assertIn('marker=73a211d3-5c10-5ee5-bafd-0393001f3def',
                      resp.json['migrations_links'][0]['href'])
        resp = self.api.request('GET', '/v2.1/os-migrations?limit=0', version='2.59')
        self.assertEqual({'migrations': []}, resp.json)
        resp = self.api.request('GET', '/v2.1/os-migrations?limit=-1', version='2.59')
        self.assertEqual(400, resp.status_int)
