"""hostId: the same for a project's servers on one host, different for
another project's (the per-version keys and values are in
nova/tests/functional/gabbits/server-keys.yaml)."""

from nova.tests import fixtures as nova_fixtures


class HostIdTest(nova_fixtures.APITestCase):

    def test_same_host_same_project_same_host_id(self):
        nova_fixtures.add_service('h-up')
        mine = nova_fixtures.add_server('c-up', host='h-up')
        other = nova_fixtures.add_server('c-up-2', host='h-up')
        alien = nova_fixtures.add_server('c-alien', host='h-up', project_id='alt')
        ids = {}
        for uuid in (mine, other, alien):
            ids[uuid] = self.api.request('GET', '/v2.1/servers/' + uuid).json['server']['hostId']
        self.assertEqual(ids[mine], ids[other])
        self.assertNotEqual(ids[mine], ids[alien])
