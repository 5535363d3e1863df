"""The metrics in-process: the API's requests by route template (never a
raw path), the watcher's state sets and counts, and their listen address."""
import os
import socket
import urllib.request
import uuid as uuidlib

import fixtures
import prometheus_client
import testtools
import webob

import nova
import nova.conf
from nova.api.openstack import app as app_mod
from nova.compute import maintenance
from nova.db import services as service_db
from nova.db import host_status_events as store
from nova import exception
from nova.metrics import api_requests
from nova.metrics import exposition
from nova.metrics import host_status_watcher as watcher_metrics
from nova.notifications import host_status_watcher
from nova.tests import fixtures as nova_fixtures

CONF = nova.conf.CONF


def samples(registry, name):
    """{labels as a sorted tuple of pairs: value} of one sample name."""
    found = {}
    for family in registry.collect():
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] = sample.value
    return found


def count(registry, route, method, status):
    return samples(registry, 'nova_api_request_duration_seconds_count').get(
        (('method', method), ('route', route), ('status', status)))


class RequestMetricsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.useFixture(nova_fixtures.Policy())
        self.registry = prometheus_client.CollectorRegistry()
        self.app = api_requests.RequestMetrics(app_mod.ComputeAPI('noauth2'), self.registry)

    def get(self, path, method='GET'):
        req = webob.Request.blank(path, method=method,
                                  headers={'X-Auth-Token': 'admin:admin'})
        return req.get_response(self.app)

    def test_requests_are_labelled_by_route_template_never_by_path(self):
        nova_fixtures.add_service('host-1')
        server = nova_fixtures.add_server('vm', host='host-1')
        missing = str(uuidlib.uuid4())
        self.assertEqual(200, self.get('/v2.1/servers/%s' % server).status_int)
        self.assertEqual(404, self.get('/v2.1/servers/%s' % missing).status_int)
        self.assertEqual(200, self.get('/v2.1/servers/detail').status_int)
        self.assertEqual(200, self.get('/v2.1/admin/servers/detail').status_int)
        self.assertEqual(404, self.get('/v2.1/no/such/%s' % missing).status_int)
        self.get('/')
        self.assertEqual(1, count(self.registry, '/servers/{server_id}', 'GET', '200'))
        self.assertEqual(1, count(self.registry, '/servers/{server_id}', 'GET', '404'))
        self.assertEqual(2, count(self.registry, '/servers/detail', 'GET', '200'))
        self.assertEqual(1, count(self.registry, 'unmatched', 'GET', '404'))
        self.assertEqual(1, count(self.registry, '/', 'GET', '200'))
        text = prometheus_client.generate_latest(self.registry).decode()
        self.assertNotIn(server, text)
        self.assertNotIn(missing, text)

    def test_a_method_outside_http_s_set_is_other_and_not_cached(self):
        for _ in range(3):
            self.get('/v2.1/servers', method='BREW%s' % uuidlib.uuid4().hex[:4])
        self.assertEqual(3, count(self.registry, 'unmatched', 'other', '405'))
        self.assertEqual([], [key for key in self.app._children if key[1] != 'GET'])

    def test_a_request_that_raises_counts_as_500_and_still_raises(self):
        def broken(environ, start_response):
            environ[api_requests.ROUTE_KEY] = '/servers'
            raise RuntimeError('bug')
        registry = prometheus_client.CollectorRegistry()
        app = api_requests.RequestMetrics(broken, registry)
        self.assertRaises(RuntimeError, webob.Request.blank('/v2.1/servers').get_response, app)
        self.assertEqual(1, count(registry, '/servers', 'GET', '500'))


class _Group:
    """A servicegroup answering from ``alive`` (None: the backend is away)."""

    def __init__(self, alive):
        self.alive = alive

    def hosts_up(self, services):
        if self.alive is None:
            raise exception.ServiceGroupUnavailable()
        return set(services) & self.alive


class WatcherMetricsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.useFixture(fixtures.FakeLogger())
        self.registry = prometheus_client.CollectorRegistry()
        self.metrics = watcher_metrics.WatcherMetrics(self.registry)
        self.group = _Group({'host-1', 'host-2'})
        for host in ('host-1', 'host-2'):
            nova_fixtures.add_service(host)
        self.watcher = host_status_watcher.Watcher(
            notifier=_Silent(), group=self.group, holder='w', metrics=self.metrics)

    def value(self, name, **labels):
        return samples(self.registry, name).get(tuple(sorted(labels.items())))

    def statuses(self, name='nova_host_status'):
        return {dict(labels)['host']: dict(labels)['status']
                for labels, value in samples(self.registry, name).items() if value == 1}

    def test_a_standby_says_so_and_exports_no_host(self):
        self.assertTrue(store.hold_lease('other', 60))
        self.watcher.tick()
        self.assertEqual(0, self.value('nova_host_status_watcher_active'))
        self.assertEqual({}, samples(self.registry, 'nova_host_status'))
        self.assertIsNone(self.value('nova_liveness_backend_up'))

    def test_state_sets_follow_every_stored_look(self):
        server = nova_fixtures.add_server('vm', host='host-2')
        nova_fixtures.add_server('no-host')
        self.watcher.tick()
        self.assertEqual(1, self.value('nova_host_status_watcher_active'))
        self.assertEqual(1, self.value('nova_liveness_backend_up'))
        self.assertEqual({'host-1': 'UP', 'host-2': 'UP'}, self.statuses())
        # a state set: every status of a host, one of them 1
        self.assertEqual(0, self.value('nova_host_status', host='host-1', status='UNKNOWN'))
        self.assertEqual(1, self.value('nova_servers', host_status='UP'))
        self.assertEqual(1, self.value('nova_servers', host_status='NONE'))
        self.assertEqual(2, self.value('nova_host_status_events_undelivered'))

        self.group.alive = {'host-1'}
        service_db.service_update('host-1', 'nova-compute', disabled=True)
        self.watcher.tick()
        self.assertEqual({'host-1': 'MAINTENANCE', 'host-2': 'UNKNOWN'}, self.statuses())
        self.assertEqual(1, self.value('nova_servers', host_status='UNKNOWN'))
        self.assertEqual(1, self.value('nova_host_status_transitions_total',
                                       **{'from': 'UP', 'to': 'UNKNOWN'}))
        self.assertEqual(1, self.value('nova_host_status_transitions_total',
                                       **{'from': 'UP', 'to': 'MAINTENANCE'}))
        self.assertEqual(2, self.value('nova_host_status_transitions_total',
                                       **{'from': 'NONE', 'to': 'UP'}))
        self.assertIsNotNone(self.value('nova_host_last_heartbeat_timestamp_seconds',
                                        host='host-2'))
        self.assertNotIn(server, prometheus_client.generate_latest(self.registry).decode())

    def test_health_shows_a_window_ahead_and_a_dead_disabled_host(self):
        maintenance.create('host-1', '2099-01-01T00:00:00Z', '2099-01-02T00:00:00Z',
                           'disk', 'reboot')
        self.group.alive = {'host-1'}
        service_db.service_update('host-2', 'nova-compute', disabled=True)
        self.watcher.tick()
        self.assertEqual({'host-1': 'UP', 'host-2': 'MAINTENANCE'}, self.statuses())
        self.assertEqual({'host-1': 'NEEDS_MAINTENANCE', 'host-2': 'UNKNOWN'},
                         self.statuses('nova_host_health_status'))
        self.assertEqual(1, self.value('nova_host_maintenance_windows', state='scheduled'))
        self.assertEqual(0, self.value('nova_host_maintenance_windows', state='completed'))

    def test_a_liveness_outage_reads_unknown_and_counts_no_transition(self):
        self.watcher.tick()
        self.group.alive = None
        self.watcher.tick()
        self.assertEqual(0, self.value('nova_liveness_backend_up'))
        self.assertEqual({'host-1': 'UNKNOWN', 'host-2': 'UNKNOWN'}, self.statuses())
        self.group.alive = {'host-1', 'host-2'}
        self.watcher.tick()
        self.watcher.tick()
        self.assertEqual(1, self.value('nova_liveness_backend_up'))
        self.assertEqual({'host-1': 'UP', 'host-2': 'UP'}, self.statuses())
        self.assertIsNone(self.value('nova_host_status_transitions_total',
                                     **{'from': 'UP', 'to': 'UNKNOWN'}))

    def test_a_new_active_watcher_counts_from_what_was_stored(self):
        self.watcher.tick()
        store.release_lease('w')
        metrics = watcher_metrics.WatcherMetrics(prometheus_client.CollectorRegistry())
        second = host_status_watcher.Watcher(notifier=_Silent(), group=self.group,
                                             holder='second', metrics=metrics)
        self.group.alive = {'host-1'}
        second.tick()
        self.assertEqual({(('from', 'UP'), ('to', 'UNKNOWN')): 1.0},
                         samples(metrics.transitions, 'nova_host_status_transitions_total'))

    def test_delivery_is_timed_on_the_database_clock(self):
        self.watcher.tick()
        for event in store.undelivered():
            delivered_at = store.mark_delivered(event['id'])
            self.assertGreaterEqual(delivered_at, event['at'])
            self.metrics.delivered((delivered_at - event['at']).total_seconds())
        self.assertEqual(2, self.value('nova_host_status_event_delivery_seconds_count'))
        self.assertEqual(0, self.value('nova_host_status_events_undelivered'))


class _Silent:
    def info(self, *args):
        pass


class ListenAddressTest(testtools.TestCase):

    def test_a_taken_port_is_a_clear_error(self):
        with socket.socket() as sock:
            sock.bind(('127.0.0.1', 0))
            sock.listen()
            port = sock.getsockname()[1]
            error = self.assertRaises(SystemExit, exposition.MetricsServer,
                                      prometheus_client.CollectorRegistry(), '127.0.0.1',
                                      port, '[api] metrics_port')
        self.assertEqual('metrics port %d on 127.0.0.1 is taken; choose another with '
                         '[api] metrics_port' % port, str(error))

    def test_the_api_port_is_refused(self):
        error = self.assertRaises(SystemExit, exposition.check_not_api_port, 8774, 8774,
                                  '[api] metrics_port')
        self.assertIn('never served on the public API port', str(error))
        exposition.check_not_api_port(0, 8774, '[api] metrics_port')

    def test_a_server_serves_its_registry(self):
        registry = prometheus_client.CollectorRegistry()
        prometheus_client.Gauge('nova_test_gauge', 'help', registry=registry).set(3)
        with socket.socket() as sock:
            sock.bind(('127.0.0.1', 0))
            port = sock.getsockname()[1]
        server = exposition.MetricsServer(registry, '127.0.0.1', port, 'x')
        self.addCleanup(server.stop)
        with urllib.request.urlopen(server.url, timeout=5) as response:
            self.assertIn(b'nova_test_gauge 3.0', response.read())


class DocumentedTest(testtools.TestCase):

    def test_the_operator_guide_lists_every_metric_with_its_help_text(self):
        path = os.path.join(os.path.dirname(nova.__file__), '..', 'doc', 'source',
                            'operator-guide.rst')
        with open(path) as f:
            guide = ' '.join(f.read().split())
        helps = dict(watcher_metrics.HELP)
        helps['nova_api_request_duration_seconds'] = api_requests.DURATION_HELP
        for name, text in helps.items():
            self.assertIn('``%s' % name, guide)
            self.assertIn(' '.join(text.split()), guide, name)
