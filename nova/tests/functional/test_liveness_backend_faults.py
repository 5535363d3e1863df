"""The tooz liveness backend failing under a running nova-all-in-one
(Redis, etcd): liveness unknown is not a dead host. Reads keep answering
200 with every host UNKNOWN, creates find no valid host, deletes answer 503
(a local delete would orphan the server on a live compute), and once the
backend is back the computes, which kept retrying, read UP again without
restarting anything."""
import testtools

from nova.tests.functional import fixtures as func
from nova.tests.functional import liveness_servers

WAIT = 60           # generous bound of every "eventually"


class _BackendFaultTests:

    def setUp(self):
        super().setUp()
        self.backend = self.useFixture(self.LIVENESS(self))
        self.nova = self.useFixture(func.AllInOne(servicegroup_url=self.backend.url))
        self.uuid = self.nova.create_server_on('host-1')
        self.assertEqual('UP', self.host_status())

    def host_status(self):
        response = self.nova.show(self.uuid)
        self.assertEqual(200, response.status)
        return response.json['server']['host_status']

    def _everything_unknown(self):
        detail = self.nova.request('GET', '/v2.1/servers/detail?all_tenants=1',
                                  version='2.16')
        self.assertEqual(200, detail.status)
        self.assertEqual({'UNKNOWN'}, {s['host_status'] for s in detail.json['servers']})
        self.assertEqual('UNKNOWN', self.host_status())
        self.assertEqual([self.uuid], self._filtered('UNKNOWN'))
        services = self.nova.request('GET', '/v2.1/os-services', version='2.16')
        self.assertEqual(200, services.status)
        self.assertEqual({'down'}, {s['state'] for s in services.json['services']})

    def _filtered(self, status):
        found = self.nova.request(
            'GET', '/v2.1/servers/detail?all_tenants=1&host_status=%s' % status,
            version='2.16')
        self.assertEqual(200, found.status)
        return [s['id'] for s in found.json['servers'] if s['name'] == 'vm']

    def _no_valid_host_and_no_delete(self):
        created = self.nova.create_server(name='while-blind', wait_status='ERROR')
        server = self.nova.show(created).json['server']
        self.assertEqual((None, ''), (server['OS-EXT-SRV-ATTR:host'], server['host_status']))
        self.assertIn('No valid host', server['fault']['message'])
        deleted = self.nova.request('DELETE', '/v2.1/servers/%s' % self.uuid, token=func.DEMO)
        self.assertEqual(503, deleted.status)
        self.assertEqual(['serviceUnavailable'], list(deleted.json))
        self.assertEqual('ACTIVE', self.nova.show(self.uuid).json['server']['status'])

    def _back_up_and_deletable(self):
        self.nova.wait_for_host_status(self.uuid, 'UP', timeout=WAIT)
        self.assertEqual([self.uuid], self._filtered('UP'))
        deleted = self.nova.request('DELETE', '/v2.1/servers/%s' % self.uuid, token=func.DEMO)
        self.assertEqual(204, deleted.status)

    def test_backend_down(self):
        self.backend.kill()
        self.nova._wait(lambda: self.host_status() == 'UNKNOWN', WAIT, 'UNKNOWN')
        self._everything_unknown()
        self._no_valid_host_and_no_delete()
        self.backend.start()
        self._back_up_and_deletable()

    def test_a_host_back_reads_up_everywhere_while_another_is_not_back(self):
        # the backend restarts; host-1 beats again, host-2 (frozen) cannot:
        # host-1 reads UP in the show and in the host_status filter alike
        # (the filter read nothing UP until every host had beaten again,
        # which made test_backend_down flaky on a loaded machine)
        self.backend.kill()
        self.nova._wait(lambda: self.host_status() == 'UNKNOWN', WAIT, 'UNKNOWN')
        self.nova.freeze_outside_writes('host-2')
        self.backend.start()
        self.nova.wait_for_host_status(self.uuid, 'UP', timeout=WAIT)
        self.assertEqual([self.uuid], self._filtered('UP'))

    def test_backend_hung(self):
        # accepts connections, never answers: each read waits at most the
        # backend timeout (2 s by default), then the hosts read UNKNOWN
        self.backend.freeze()
        self.addCleanup(self.backend.thaw)
        self.nova._wait(lambda: self.host_status() == 'UNKNOWN', WAIT, 'UNKNOWN')
        self._everything_unknown()
        self._no_valid_host_and_no_delete()
        self.backend.thaw()
        self._back_up_and_deletable()


class RedisFaultsTest(_BackendFaultTests, testtools.TestCase):
    LIVENESS = liveness_servers.Redis


class EtcdFaultsTest(_BackendFaultTests, testtools.TestCase):
    LIVENESS = liveness_servers.Etcd
