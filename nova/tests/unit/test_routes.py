"""The route table: which paths exist, with or without a project id."""
import testtools

from nova.api.openstack import faults
from nova.api.openstack import router
from nova.tests import fixtures as nova_fixtures


class RoutingTest(nova_fixtures.APITestCase):

    def assertFault(self, resp, code, name):
        self.assertEqual(code, resp.status_int, resp.body)
        self.assertEqual([name], list(resp.json))
        self.assertEqual(code, resp.json[name]['code'])

    def test_unknown_collection_is_a_json_404(self):
        for path in ('/v2.1/serverz', '/v2.1/serverz/x', '/v2.1/demo/serverz',
                     '/v2.1/demo/serverz/x', '/v2.1/demo', '/v2.1/servers/x/y'):
            resp = self.api.request('GET', path, token='demo:demo')
            self.assertFault(resp, 404, 'itemNotFound')
            self.assertEqual('application/json', resp.content_type)

    def test_project_id_in_front_of_a_known_collection(self):
        own = self.api.request('GET', '/v2.1/demo/servers', token='demo:demo')
        self.assertEqual(200, own.status_int)
        other = self.api.request('GET', '/v2.1/alt/servers', token='demo:demo')
        self.assertFault(other, 400, 'badRequest')
        self.assertIn("URL's project_id 'alt' doesn't match", other.json['badRequest']['message'])

    def test_detail_is_not_a_server_id(self):
        for path in ('/v2.1/servers/detail', '/v2.1/demo/servers/detail'):
            resp = self.api.request('GET', path, token='demo:demo')
            self.assertEqual(200, resp.status_int, path)
            self.assertEqual({'servers': []}, resp.json)

    def test_a_wrong_method_is_405(self):
        resp = self.api.request('DELETE', '/v2.1/servers/detail', token='demo:demo')
        self.assertFault(resp, 405, 'badMethod')


class RouterTest(testtools.TestCase):

    def test_fixed_paths_win_whatever_the_order(self):
        declarations = {'/things/{thing_id}': {'GET': 'show'}, '/things/detail': {'GET': 'detail'}}
        table = router.Router(declarations)
        self.assertEqual(('detail', {}), table.match('GET', 'things/detail'))
        self.assertEqual(('show', {'thing_id': 'x'}), table.match('GET', 'things/x'))

    def test_placeholders_are_named_and_span_one_segment(self):
        table = router.Router({'/things/{thing_id}': {'GET': 'show'}})
        self.assertRaises(faults.Fault, table.match, 'GET', 'things/x/y')
        self.assertEqual((None, 'things/x'), table.split_project('/things/x'))
        self.assertEqual(('p', 'things/x'), table.split_project('/p/things/x'))
        self.assertRaises(faults.Fault, table.split_project, '/p/other/x')
