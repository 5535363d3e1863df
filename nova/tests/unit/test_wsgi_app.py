import webob
import testtools

import nova.conf
from nova.api.openstack import wsgi_app
from nova.tests import fixtures as nova_fixtures

CONF = nova.conf.CONF


class ProxyHeadersTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.useFixture(nova_fixtures.Policy())

    def self_link(self):
        req = webob.Request.blank('/v2.1/', base_url='http://10.0.0.5:8774',
                                  headers={'X-Forwarded-Proto': 'https'})
        return req.get_response(wsgi_app.load_app()).json['version']['links'][0]['href']

    def test_forwarded_scheme_is_ignored_by_default(self):
        self.assertEqual('http://10.0.0.5:8774/v2.1/', self.self_link())

    def test_forwarded_scheme_is_used_when_enabled(self):
        CONF.set_override('enable_proxy_headers_parsing', True, group='oslo_middleware')
        self.addCleanup(CONF.clear_override, 'enable_proxy_headers_parsing',
                        group='oslo_middleware')
        self.assertEqual('https://10.0.0.5:8774/v2.1/', self.self_link())
