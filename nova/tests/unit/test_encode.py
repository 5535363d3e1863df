"""Response JSON: the same bytes with orjson and with the stdlib fallback."""
import json

import testtools

from nova.api.openstack import encode

SERVER = {
    'accessIPv4': '', 'addresses': {}, 'created': '2026-11-29T21:43:23Z',
    'flavor': {'id': '1', 'links': [{'rel': 'bookmark', 'href': 'http://h/flavors/1'}]},
    'metadata': {'ha': 'true', 'quote"back\\slash': 'tab\tnew\nline', 'ctl': '\x01'},
    'name': 'sérveur 服务器 \u2028', 'progress': 0, 'locked': False, 'key_name': None,
    'OS-EXT-SRV-ATTR:launch_index': 3, 'rxtx_factor': 1.0, 'host_status': 'UNKNOWN',
}


class EncodeTest(testtools.TestCase):

    def test_round_trips_with_key_order(self):
        body = encode.dumps({'server': SERVER})
        decoded = json.loads(body)
        self.assertEqual({'server': SERVER}, decoded)
        self.assertEqual(list(SERVER), list(decoded['server']))

    def test_orjson_and_stdlib_give_the_same_bytes(self):
        if encode.orjson is None:
            self.skipTest('orjson is not installed')
        body = {'servers': [SERVER, dict(SERVER, name='x')], 'n': [1, -2, 2 ** 40]}
        self.assertEqual(encode.orjson.dumps(body), encode.stdlib_dumps(body))

    def test_what_orjson_refuses_still_encodes(self):
        for odd in ('lone \ud800 surrogate', 2 ** 70):
            self.assertEqual({'v': odd}, json.loads(encode.dumps({'v': odd})))
