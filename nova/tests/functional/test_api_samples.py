"""The api-ref's JSON samples, checked against the running service.

Every file in api-ref/source/samples/ is used here: a ``*-req.json`` is a
request body these tests send, a ``*-resp.json`` is compared with the body
the service answered, key for key and in key order, recursively. Values that
change from one run to the next (UUIDs, timestamps, hostId hashes, endpoint
URLs, reservation ids, admin passwords) only need to be of the same kind;
everything else, ``host_status`` included, must be equal.

When a response changes on purpose, rewrite the response samples from what
the service answers, then review the diff::

    NOVA_REGENERATE_SAMPLES=1 stestr --test-path=./nova/tests/functional run test_api_samples
"""
import datetime
import glob
import json
import os
import re

import testtools

import nova
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import fixtures as func
from nova.tests.functional import json_diff

ADMIN, DEMO = func.ADMIN, func.DEMO

REPO = os.path.dirname(os.path.dirname(os.path.abspath(nova.__file__)))
API_REF = os.path.join(REPO, 'api-ref', 'source')
SAMPLES = os.path.join(API_REF, 'samples')
# Regenerated samples show this endpoint instead of the test's ephemeral one.
DOC_ENDPOINT = 'http://openstack.example.com'
REGENERATE = os.environ.get('NOVA_REGENERATE_SAMPLES') == '1'

# Applied to every string, in this order, before two strings are compared.
_VOLATILE = (
    (re.compile(r'https?://[^/\s"]+'), '<endpoint>'),
    (re.compile(r'[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
                r'[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'), '<uuid>'),
    (re.compile(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?'), '<time>'),
    (re.compile(r'^[0-9a-f]{56}$'), '<host-id>'),
    (re.compile(r'^r-[0-9a-z]{8}$'), '<reservation-id>'),
)
# Keys whose value may be anything of the sample's type: random by design
# (passwords, generated keys and their fingerprints), or
# ids handed out in an order the test does not control (service ids), or
# opaque cursors.
_ANY_VALUE = frozenset(('adminPass', 'id', 'next', 'private_key', 'public_key',
                        'fingerprint'))


def normalize(text):
    for pattern, placeholder in _VOLATILE:
        text = pattern.sub(placeholder, text)
    return text


def differences(expected, actual):
    """How ``actual`` departs from the sample ``expected``: [] when it matches."""
    return json_diff.differences(expected, actual, 'body', any_value=_ANY_VALUE,
                                 same_leaf=_same_leaf)


def _same_leaf(expected, actual):
    if isinstance(expected, str):
        return normalize(expected) == normalize(actual)
    return expected == actual


class SampleTestCase(testtools.TestCase):
    hosts = 1
    # Heartbeats every second; a host is UNKNOWN after 6 s without one, so a
    # busy test machine would have to miss five in a row to change a sample.
    service_down_time = 6

    def setUp(self):
        super().setUp()
        if not os.path.isdir(SAMPLES):
            self.skipTest('no api-ref/source/samples beside the package (not a source tree)')
        self.nova = self.useFixture(func.AllInOne(
            hosts=self.hosts, report_interval=1, service_down_time=self.service_down_time))

    @staticmethod
    def request_sample(name):
        with open(os.path.join(SAMPLES, name)) as f:
            return json.load(f)

    @staticmethod
    def _load(path):
        with open(path) as f:
            return json.load(f)

    def verify(self, name, resp, status=200, body=None):
        """``resp`` must have ``status`` and a body (or ``body``, derived
        from it) shaped like sample ``name``."""
        self.assertEqual(status, resp.status, resp.raw)
        check_sample(self, name, resp.json if body is None else body, self.nova.url)


def check_sample(test, name, body, endpoint):
    """``body`` must be shaped like sample ``name`` (written from it, with
    ``endpoint`` replaced, when regenerating)."""
    path = os.path.join(SAMPLES, name)
    if REGENERATE and (not os.path.exists(path) or differences(
            SampleTestCase._load(path), body)):
        # only samples that changed, so the diff shows what changed
        text = json.dumps(body, indent=4) + '\n'
        with open(path, 'w') as f:
            f.write(text.replace(endpoint, DOC_ENDPOINT))
    if not os.path.exists(path):
        test.fail('%s is missing; write it with NOVA_REGENERATE_SAMPLES=1' % name)
    found = differences(SampleTestCase._load(path), body)
    if found:
        test.fail('%s no longer matches the service:\n  %s\nIf the change is '
                  'intended, regenerate with NOVA_REGENERATE_SAMPLES=1 and review '
                  'the diff.' % (name, '\n  '.join(found)))


def by_host(resp):
    """The services list in host order: computes started together register,
    and so get their ids, in no fixed order."""
    return {'services': sorted(resp.json['services'], key=lambda s: s['host'])}


class VersionsSamplesTest(SampleTestCase):

    def test_version_documents(self):
        self.verify('versions-get-resp.json', self.nova.request('GET', '/', token=None))
        self.verify('version-show-resp.json',
                    self.nova.request('GET', '/v2.1/', token=None))
        self.verify('version-v2-show-resp.json',
                    self.nova.request('GET', '/v2/', token=None))


class FlavorsSamplesTest(SampleTestCase):

    def test_flavors(self):
        self.verify('flavors-list-resp.json', self.nova.request('GET', '/v2.1/flavors',
                                                                token=DEMO))
        self.verify('flavors-detail-resp.json',
                    self.nova.request('GET', '/v2.1/flavors/detail', token=DEMO))
        self.verify('flavor-show-resp.json', self.nova.request('GET', '/v2.1/flavors/1',
                                                               token=DEMO))


class FlavorManageSamplesTest(SampleTestCase):

    def test_create_grant_list_remove_delete(self):
        resp = self.nova.request('POST', '/v2.1/flavors', token=ADMIN,
                                 body=self.request_sample('flavor-create-req.json'))
        self.verify('flavor-create-resp.json', resp)
        resp = self.nova.request('POST', '/v2.1/flavors/custom-1/action', token=ADMIN,
                                 body=self.request_sample('flavor-access-add-req.json'))
        self.verify('flavor-access-add-resp.json', resp)
        self.verify('flavor-access-list-resp.json', self.nova.request(
            'GET', '/v2.1/flavors/custom-1/os-flavor-access', token=ADMIN))
        resp = self.nova.request('POST', '/v2.1/flavors/custom-1/action', token=ADMIN,
                                 body=self.request_sample('flavor-access-remove-req.json'))
        self.verify('flavor-access-remove-resp.json', resp)
        resp = self.nova.request('DELETE', '/v2.1/flavors/custom-1', token=ADMIN)
        self.assertEqual(202, resp.status)
        self.assertEqual(b'', resp.raw)

    def test_description(self):
        """2.55: create with a description, then update it (2.61: the
        answer carries the extra specs too)."""
        resp = self.nova.request('POST', '/v2.1/flavors', token=ADMIN, version='2.55',
                                 body=self.request_sample('flavor-create-2.55-req.json'))
        self.verify('flavor-create-2.55-resp.json', resp)
        resp = self.nova.request('PUT', '/v2.1/flavors/described-1', token=ADMIN,
                                 version='2.61',
                                 body=self.request_sample('flavor-update-req.json'))
        self.verify('flavor-update-resp.json', resp)
        resp = self.nova.request('DELETE', '/v2.1/flavors/described-1', token=ADMIN)
        self.assertEqual(202, resp.status)


class KeypairsSamplesTest(SampleTestCase):

    def test_create_import_list_show_delete(self):
        resp = self.nova.request('POST', '/v2.1/os-keypairs', token=DEMO, version='2.2',
                                 body=self.request_sample('keypair-create-req.json'))
        self.verify('keypair-create-resp.json', resp, 201)
        resp = self.nova.request('POST', '/v2.1/os-keypairs', token=DEMO, version='2.2',
                                 body=self.request_sample('keypair-import-req.json'))
        self.verify('keypair-import-resp.json', resp, 201)
        self.verify('keypairs-list-resp.json', self.nova.request(
            'GET', '/v2.1/os-keypairs?limit=1', token=DEMO, version='2.35'))
        self.verify('keypair-show-resp.json', self.nova.request(
            'GET', '/v2.1/os-keypairs/imported', token=DEMO, version='2.2'))
        resp = self.nova.request('DELETE', '/v2.1/os-keypairs/mykey', token=DEMO,
                                 version='2.2')
        self.assertEqual(204, resp.status)


class ServersSamplesTest(SampleTestCase):

    def test_create_list_show_delete(self):
        resp = self.nova.request('POST', '/v2.1/servers', token=DEMO,
                                 body=self.request_sample('server-create-req.json'))
        self.verify('server-create-resp.json', resp, 202)
        uuid = resp.json['server']['id']
        self.nova.wait_for_server(uuid, 'ACTIVE')

        self.verify('servers-list-resp.json',
                    self.nova.request('GET', '/v2.1/servers', token=DEMO))
        self.verify('servers-detail-resp.json', self.nova.request(
            'GET', '/v2.1/servers/detail?all_tenants=1', version='2.16'))
        self.verify('server-show-resp.json', self.nova.show(uuid, version='2.1'))
        self.verify('server-show-2.16-resp.json', self.nova.show(uuid, version='2.16'))

        self.nova.create_server(name='web-2')
        self.verify('servers-list-paginated-resp.json',
                    self.nova.request('GET', '/v2.1/servers?limit=1', token=DEMO))

        resp = self.nova.request('DELETE', '/v2.1/servers/%s' % uuid, token=DEMO)
        self.assertEqual(204, resp.status)
        self.assertEqual(b'', resp.raw)
        self.nova._wait(lambda: self.nova.show(uuid).status == 404, 20, 'deleted')


class Servers253SamplesTest(SampleTestCase):
    """Description (2.19), tags (2.26, 2.52), networks (2.37), the embedded
    flavor (2.47): create, show, detail, update and the tags routes."""

    def test_servers_at_2_53(self):
        nova = self.nova
        resp = nova.request('POST', '/v2.1/servers', token=DEMO, version='2.53',
                            body=self.request_sample('server-create-2.53-req.json'))
        self.verify('server-create-2.53-resp.json', resp, 202)
        uuid = resp.json['server']['id']
        nova.wait_for_server(uuid, 'ACTIVE')
        self.verify('server-show-2.53-resp.json', nova.show(uuid, version='2.53'))
        self.verify('servers-detail-2.53-resp.json', nova.request(
            'GET', '/v2.1/servers/detail?tags=web', token=DEMO, version='2.53'))
        server = '/v2.1/servers/' + uuid
        self.verify('server-update-2.53-resp.json', nova.request(
            'PUT', server, token=DEMO, version='2.53',
            body=self.request_sample('server-update-2.53-req.json')))
        self.verify('server-tags-put-all-resp.json', nova.request(
            'PUT', server + '/tags', token=DEMO, version='2.26',
            body=self.request_sample('server-tags-put-all-req.json')))
        added = nova.request('PUT', server + '/tags/blue', token=DEMO, version='2.26')
        self.assertEqual(201, added.status)
        self.assertEqual(nova.url + server + '/tags/blue', added.header('Location'))
        self.verify('server-tags-index-resp.json', nova.request(
            'GET', server + '/tags', token=DEMO, version='2.26'))


class HostStatusSamplesTest(SampleTestCase):
    """One server per host_status value, on four hosts and on none."""
    hosts = 4

    def test_every_host_status(self):
        nova = self.nova
        nova.create_server_without_a_host()
        # The scheduler picks the least loaded host, then the first by name.
        uuids = {}
        for name, host in (('on-up-host', 'host-1'), ('on-maintenance-host', 'host-2'),
                           ('on-down-host', 'host-3'), ('on-unknown-host', 'host-4')):
            uuids[name] = nova.create_server(name=name)
            self.assertEqual(host, nova.show(uuids[name]).json['server']
                             ['OS-EXT-SRV-ATTR:host'])

        nova.service_action('disable-log-reason', 'host-2', disabled_reason='kernel upgrade')
        # forced down and disabled: forced down wins
        nova.service_action('force-down', 'host-3', forced_down=True)
        nova.service_action('disable', 'host-3')
        nova.freeze('host-4')
        nova.wait_for_host_status(uuids['on-unknown-host'], 'UNKNOWN')

        self.verify('servers-detail-host-status-resp.json', nova.request(
            'GET', '/v2.1/servers/detail?all_tenants=1', version='2.16'))
        resp = nova.request('GET', '/v2.1/os-services', version='2.11')
        self.verify('services-list-2.11-resp.json', resp, body=by_host(resp))

        nova.set_policy(func.UNKNOWN_ONLY_POLICY, lambda: 'host_status' in nova.show(
            uuids['on-unknown-host'], token=DEMO).json['server'])
        self.verify('servers-detail-unknown-only-resp.json', nova.request(
            'GET', '/v2.1/servers/detail', token=DEMO, version='2.16'))


class ServicesSamplesTest(SampleTestCase):
    hosts = 2

    def _put(self, action, request_sample, version='2.1'):
        return self.nova.request('PUT', '/v2.1/os-services/' + action, version=version,
                                 body=self.request_sample(request_sample))

    def test_list_and_update(self):
        resp = self.nova.request('GET', '/v2.1/os-services')
        self.verify('services-list-resp.json', resp, body=by_host(resp))
        self.verify('service-disable-resp.json',
                    self._put('disable', 'service-disable-req.json'))
        self.verify('service-enable-resp.json', self._put('enable', 'service-enable-req.json'))
        self.verify('service-disable-log-reason-resp.json',
                    self._put('disable-log-reason', 'service-disable-log-reason-req.json'))
        self.verify('service-force-down-resp.json',
                    self._put('force-down', 'service-force-down-req.json', version='2.11'))
        listed = {s['host']: s for s in self.nova.services()}
        self.assertTrue(listed['host-1']['forced_down'])
        self.assertEqual('disabled', listed['host-1']['status'])

    def test_by_uuid_at_2_53(self):
        resp = self.nova.request('GET', '/v2.1/os-services', version='2.53')
        self.verify('services-list-2.53-resp.json', resp, body=by_host(resp))
        uuid = by_host(resp)['services'][0]['id']
        for request, response in (
                ('service-update-disable-2.53-req.json', 'service-update-disable-2.53-resp.json'),
                ('service-update-force-down-2.53-req.json',
                 'service-update-force-down-2.53-resp.json'),
                ('service-update-enable-2.53-req.json', 'service-update-enable-2.53-resp.json')):
            self.verify(response, self.nova.request('PUT', '/v2.1/os-services/' + uuid,
                                                    version='2.53',
                                                    body=self.request_sample(request)))
        uuid = by_host(resp)['services'][1]['id']      # host-2: no servers
        resp = self.nova.request('DELETE', '/v2.1/os-services/' + uuid, version='2.53')
        self.assertEqual((204, b''), (resp.status, resp.raw))
        self.assertEqual(['host-1'], [s['host'] for s in self.nova.services()])


class HostStatusEventsSamplesTest(SampleTestCase):
    hosts = 2

    def _feed(self, query='', token=ADMIN):
        resp = self.nova.request('GET', '/v2.1/os-host-status-events' + query, token=token)
        self.assertEqual(200, resp.status, resp.raw)
        return resp

    def _wait_for_event(self, cursor, reason):
        self.nova._wait(lambda: reason in [e['reason'] for e in self._feed(
            '?wait=5&after=' + cursor).json['events']], 30, reason)

    def test_feed(self):
        nova = self.nova
        nova.attach_logs_on_failure(self)
        # the watcher has seen both hosts before the server exists
        nova._wait(lambda: [e['reason'] for e in self._feed().json['events']]
                   == ['registered', 'registered'], 30, 'both hosts registered')
        # each cursor is read before the action its wait looks for: read
        # after it, the watcher may already have stored the event
        start = self._feed().json['next']
        nova.service_action('disable', 'host-2')
        self._wait_for_event(start, 'disabled')
        uuid = nova.create_server(name='web-1')
        start = self._feed('?after=' + start).json['next']
        nova.service_action('enable', 'host-2')
        self._wait_for_event(start, 'enabled')
        cursor = self._feed('?after=' + start).json['next']

        nova.freeze_outside_writes('host-1')
        self._wait_for_event(cursor, 'heartbeat_stale')
        nova.thaw('host-1')
        self._wait_for_event(cursor, 'heartbeat_resumed')

        self.verify('host-status-events-list-resp.json', self._feed('?after=' + cursor))
        self.verify('host-status-events-server-resp.json',
                    self._feed('?server_id=' + uuid))
        self.verify('host-status-events-member-resp.json', self._feed(token=DEMO))


class HostMaintenanceSamplesTest(SampleTestCase):
    hosts = 2

    def _body(self, name, lead, length):
        """The request sample with its times moved to ``lead`` s from now."""
        body = self.request_sample(name)
        start = datetime.datetime.now(datetime.timezone.utc).replace(
            tzinfo=None, microsecond=0) + datetime.timedelta(seconds=lead)
        window = body['maintenance']
        if 'start' in window:
            window['start'] = start.isoformat() + 'Z'
        window['end'] = (start + datetime.timedelta(seconds=length)).isoformat() + 'Z'
        return body

    def test_windows_and_host_health(self):
        nova = self.nova
        nova.attach_logs_on_failure(self)
        uuid = nova.create_server_on('host-1', 'web-1')
        created = nova.request('POST', '/v2.1/os-host-maintenance',
                               body=self._body('host-maintenance-create-req.json',
                                               86400, 7200))
        self.verify('host-maintenance-create-resp.json', created, status=201)
        item = '/v2.1/os-host-maintenance/%s' % created.json['maintenance']['id']
        self.verify('host-maintenance-update-resp.json', nova.request(
            'PUT', item, body=self._body('host-maintenance-update-req.json', 86400, 10800)))
        self.verify('host-maintenance-show-resp.json', nova.request('GET', item))
        self.verify('host-maintenance-list-resp.json',
                    nova.request('GET', '/v2.1/os-host-maintenance'))
        self.verify('host-maintenance-member-list-resp.json',
                    nova.request('GET', '/v2.1/os-host-maintenance', token=DEMO))
        health = '/v2.1/servers/%s/host-health' % uuid
        nova._wait(lambda: nova.request('GET', health).json['host_health']['since'],
                   30, 'the watcher stored host-1')
        self.verify('server-host-health-resp.json', nova.request('GET', health, token=DEMO))
        self.verify('server-host-health-admin-resp.json', nova.request('GET', health),
                    body=self._rounded(nova.request('GET', health).json))

    @staticmethod
    def _rounded(body):
        """The heartbeat age varies from run to run: shown as a whole 0."""
        body['host_health']['heartbeat_age'] = 0.0
        return body


class SampleFilesTest(testtools.TestCase):
    """No sample goes unchecked or unshown; the comparison itself can fail."""

    def setUp(self):
        super().setUp()
        if not os.path.isdir(SAMPLES):
            self.skipTest('no api-ref/source/samples beside the package (not a source tree)')

    def test_every_sample_is_checked_and_shown(self):
        files = set(os.listdir(SAMPLES))
        with open(__file__.replace('.pyc', '.py')) as f:
            checked = set(re.findall(r"'([\w.-]+\.json)'", f.read()))
        shown = set()
        for page in glob.glob(os.path.join(API_REF, '*.inc')):
            with open(page) as f:
                shown |= set(re.findall(r'literalinclude:: samples/([\w.-]+)', f.read()))
        self.assertEqual([], sorted(files - checked), 'samples no test sends or checks')
        self.assertEqual([], sorted(checked - files), 'samples the tests expect but lack')
        self.assertEqual([], sorted(files - shown), 'samples the api-ref does not show')
        self.assertEqual([], sorted(shown - files), 'samples the api-ref shows but lack')

    def test_volatile_values_may_differ(self):
        sample = {'server': {
            'id': '0b6e2e4c-7a4e-4f43-9a3b-5d6f0f6a8f10', 'adminPass': 'abc',
            'created': '2030-01-01T00:00:00Z', 'launched': '2030-01-01T00:00:00.123456',
            'hostId': 'a' * 56, 'reservation_id': 'r-abcd1234',
            'links': [{'href': 'http://openstack.example.com/v2.1/servers/'
                               '0b6e2e4c-7a4e-4f43-9a3b-5d6f0f6a8f10'}]}}
        response = {'server': {
            'id': '3f1d2c3b-1111-4222-8333-944455556666', 'adminPass': 'xyz',
            'created': '2031-02-03T04:05:06Z', 'launched': '2031-02-03T04:05:06.000001',
            'hostId': 'b' * 56, 'reservation_id': 'r-zzzz9999',
            'links': [{'href': 'http://127.0.0.1:40000/v2.1/servers/'
                               '3f1d2c3b-1111-4222-8333-944455556666'}]}}
        self.assertEqual([], differences(sample, response))

    def test_what_matters_must_match(self):
        sample = {'server': {'status': 'ACTIVE', 'host_status': 'UP', 'locked': False,
                             'progress': 0, 'metadata': {'role': 'web'}}}
        cases = {
            'value': {'status': 'ACTIVE', 'host_status': 'UNKNOWN', 'locked': False,
                      'progress': 0, 'metadata': {'role': 'web'}},
            'missing key': {'status': 'ACTIVE', 'locked': False, 'progress': 0,
                            'metadata': {'role': 'web'}},
            'extra key': {'status': 'ACTIVE', 'host_status': 'UP', 'locked': False,
                          'progress': 0, 'metadata': {'role': 'web'}, 'tags': []},
            'key order': {'host_status': 'UP', 'status': 'ACTIVE', 'locked': False,
                          'progress': 0, 'metadata': {'role': 'web'}},
            'type': {'status': 'ACTIVE', 'host_status': 'UP', 'locked': 0,
                     'progress': None, 'metadata': {'role': 'web'}},
            'nested': {'status': 'ACTIVE', 'host_status': 'UP', 'locked': False,
                       'progress': 0, 'metadata': {'role': 'db'}},
        }
        for what, server in cases.items():
            self.assertNotEqual([], differences(sample, {'server': server}), what)
        self.assertNotEqual([], differences({'servers': [{}]}, {'servers': [{}, {}]}))


class ServerActionsSamplesTest(SampleTestCase):
    hosts = 2

    def _act(self, uuid, sample, token=ADMIN, version=None):
        return self.nova.request('POST', '/v2.1/servers/%s/action' % uuid, token=token,
                                 version=version, body=self.request_sample(sample))

    def test_actions(self):
        nova = self.nova
        uuid = nova.create_server_on('host-1')
        other = nova.create_server_on('host-1', name='other')
        for sample, token, status in (
                ('server-action-stop-req.json', DEMO, 'SHUTOFF'),
                ('server-action-start-req.json', DEMO, 'ACTIVE'),
                ('server-action-reboot-req.json', DEMO, 'ACTIVE'),
                ('server-action-lock-req.json', ADMIN, 'ACTIVE'),
                ('server-action-unlock-req.json', ADMIN, 'ACTIVE'),
                ('server-action-reset-state-req.json', ADMIN, 'ERROR')):
            resp = self._act(uuid, sample, token)
            self.assertEqual((202, b''), (resp.status, resp.raw), sample)
            nova._wait(lambda: nova.show(uuid).json['server']['OS-EXT-STS:task_state'] is None
                       and nova.show(uuid).json['server']['status'] == status, 20, sample)
        nova.service_action('force-down', 'host-1', forced_down=True, version='2.11')
        resp = self._act(uuid, 'server-action-evacuate-req.json', version='2.14')
        self.assertEqual((200, b''), (resp.status, resp.raw))
        self.verify('server-action-evacuate-2.13-resp.json',
                    self._act(other, 'server-action-evacuate-2.13-req.json', version='2.13'))
        for server in (uuid, other):
            nova._wait(lambda: nova.show(server).json['server']['OS-EXT-SRV-ATTR:host']
                       == 'host-2', 20, 'evacuated to host-2')


class AggregatesSamplesTest(SampleTestCase):
    """host-1 runs no server here, so it may join a zoned aggregate."""

    def test_aggregates(self):
        def action(name, version='2.41'):
            return self.nova.request('POST', '/v2.1/os-aggregates/%d/action' % aggregate_id,
                                     version=version, body=self.request_sample(name))

        resp = self.nova.request('POST', '/v2.1/os-aggregates', version='2.41',
                                 body=self.request_sample('aggregate-create-req.json'))
        self.verify('aggregate-create-resp.json', resp)
        aggregate_id = resp.json['aggregate']['id']
        self.verify('aggregate-add-host-resp.json', action('aggregate-add-host-req.json'))
        self.verify('aggregate-set-metadata-resp.json',
                    action('aggregate-set-metadata-req.json'))
        self.verify('aggregate-show-resp.json', self.nova.request(
            'GET', '/v2.1/os-aggregates/%d' % aggregate_id, version='2.41'))
        self.verify('aggregate-show-2.1-resp.json', self.nova.request(
            'GET', '/v2.1/os-aggregates/%d' % aggregate_id, version='2.1'))
        self.verify('aggregates-list-resp.json', self.nova.request(
            'GET', '/v2.1/os-aggregates', version='2.41'))
        self.verify('aggregate-update-resp.json', self.nova.request(
            'PUT', '/v2.1/os-aggregates/%d' % aggregate_id, version='2.41',
            body=self.request_sample('aggregate-update-req.json')))
        self.verify('aggregate-remove-host-resp.json', action('aggregate-remove-host-req.json'))
        resp = self.nova.request('DELETE', '/v2.1/os-aggregates/%d' % aggregate_id)
        self.assertEqual((200, b''), (resp.status, resp.raw))


class FlavorExtraSpecsSamplesTest(SampleTestCase):

    def test_extra_specs(self):
        path = '/v2.1/flavors/1/os-extra_specs'
        self.verify('flavor-extra-specs-create-resp.json', self.nova.request(
            'POST', path, body=self.request_sample('flavor-extra-specs-create-req.json')))
        self.verify('flavor-extra-specs-list-resp.json',
                    self.nova.request('GET', path, token=DEMO))
        self.verify('flavor-extra-spec-show-resp.json',
                    self.nova.request('GET', path + '/hw:cpu_policy', token=DEMO))
        self.verify('flavor-extra-spec-update-resp.json', self.nova.request(
            'PUT', path + '/hw:cpu_policy',
            body=self.request_sample('flavor-extra-spec-update-req.json')))
        resp = self.nova.request('DELETE', path + '/hw:cpu_policy')
        self.assertEqual((200, b''), (resp.status, resp.raw))
        server = self.nova.create_server(name='web-specs', wait_status=None)
        flavor = self.nova.show(server, version='2.47').json['server']['flavor']
        self.assertEqual({'evacuable': 'true'}, flavor['extra_specs'])

class MigrationsSamplesTest(nova_fixtures.APITestCase):
    """os-migrations in-process: an evacuation just accepted, as a client
    asking right after ``evacuate`` sees it (no updated_at yet)."""

    def setUp(self):
        super().setUp()
        if not os.path.isdir(SAMPLES):
            self.skipTest('no api-ref/source/samples beside the package (not a source tree)')

    def test_list(self):
        nova_fixtures.add_service('host-1', forced_down=True)
        nova_fixtures.add_service('host-2')
        server = nova_fixtures.add_server('evacuated', host='host-1')
        resp = self.api.request('POST', '/v2.1/servers/%s/action' % server,
                                body={'evacuate': {}}, version='2.29')
        self.assertEqual(200, resp.status_int, resp.body)
        for version, name in (('2.23', 'migrations-list-2.23-resp.json'),):
            resp = self.api.request('GET', '/v2.1/os-migrations', version=version)
            self.assertEqual(200, resp.status_int, resp.body)
            check_sample(self, name, resp.json, 'http://127.0.0.1:8774')


class ServerGroupsSamplesTest(SampleTestCase):
    hosts = 2

    def test_create_list_show_delete_and_a_member(self):
        resp = self.nova.request('POST', '/v2.1/os-server-groups', token=DEMO, version='2.64',
                                 body=self.request_sample('server-group-create-req.json'))
        self.verify('server-group-create-resp.json', resp)
        group = resp.json['server_group']['id']
        body = self.request_sample('server-create-in-group-req.json')
        body['os:scheduler_hints']['group'] = group
        resp = self.nova.request('POST', '/v2.1/servers', token=DEMO, version='2.37', body=body)
        self.assertEqual(202, resp.status, resp.raw)
        self.nova.wait_for_server(resp.json['server']['id'], 'ACTIVE')
        self.verify('server-group-show-resp.json', self.nova.request(
            'GET', '/v2.1/os-server-groups/' + group, token=DEMO, version='2.64'))
        resp = self.nova.request('POST', '/v2.1/os-server-groups', token=DEMO,
                                 body=self.request_sample('server-group-create-2.1-req.json'))
        self.verify('server-group-create-2.1-resp.json', resp)
        self.verify('server-groups-list-resp.json', self.nova.request(
            'GET', '/v2.1/os-server-groups', token=DEMO, version='2.64'))
        resp = self.nova.request('DELETE', '/v2.1/os-server-groups/' + resp.json[
            'server_group']['id'], token=DEMO)
        self.assertEqual(204, resp.status)


class InstanceActionsSamplesTest(SampleTestCase):

    def test_list_and_show(self):
        uuid = self.nova.create_server(name='web-1')
        resp = self.nova.request('POST', '/v2.1/servers/%s/action' % uuid, token=DEMO,
                                 body={'reboot': {'type': 'HARD'}})
        self.assertEqual(202, resp.status)
        request_id = resp.header('x-openstack-request-id')
        self.nova.wait_for_server(uuid, 'ACTIVE')
        self.nova._wait(lambda: self.nova.request(
            'GET', '/v2.1/servers/%s/os-instance-actions/%s' % (uuid, request_id),
            token=DEMO, version='2.62').json['instanceAction']['events'][0]['result'],
            20, 'the reboot ended')
        self.verify('instance-actions-list-resp.json', self.nova.request(
            'GET', '/v2.1/servers/%s/os-instance-actions?limit=1' % uuid, token=DEMO,
            version='2.58'))
        self.verify('instance-action-show-resp.json', self.nova.request(
            'GET', '/v2.1/servers/%s/os-instance-actions/%s' % (uuid, request_id), token=DEMO,
            version='2.62'))
        self.verify('instance-action-show-admin-resp.json', self.nova.request(
            'GET', '/v2.1/servers/%s/os-instance-actions/%s' % (uuid, request_id),
            version='2.62'))
