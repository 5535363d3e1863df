import testtools

import nova.conf
from nova.cmd import api as cmd_api

CONF = nova.conf.CONF


class Noauth2ExposureTest(testtools.TestCase):

    def set(self, **overrides):
        for name, value in overrides.items():
            CONF.set_override(name, value, group='api')
            self.addCleanup(CONF.clear_override, name, group='api')

    def test_loopback_is_fine(self):
        for address in ('127.0.0.1', '127.0.0.5', '::1', 'localhost'):
            self.set(bind_host=address)
            cmd_api.check_auth_exposure()

    def test_public_address_with_noauth2_is_refused(self):
        for address in ('0.0.0.0', '192.0.2.10', '::', 'compute.example.org'):
            self.set(bind_host=address)
            exc = self.assertRaises(SystemExit, cmd_api.check_auth_exposure)
            self.assertIn('refusing to serve noauth2', str(exc))

    def test_explicit_opt_in_or_keystone_allows_it(self):
        self.set(bind_host='0.0.0.0', allow_noauth2_on_public_address=True)
        cmd_api.check_auth_exposure()
        self.set(allow_noauth2_on_public_address=False, auth_strategy='keystone')
        cmd_api.check_auth_exposure()
