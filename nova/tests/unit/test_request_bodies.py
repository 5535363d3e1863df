"""Hostile request bodies: deep or unstorable JSON is a 400 badRequest, a body
over [oslo_middleware] max_request_body_size a 413 overLimit in Nova's fault
form, refused before it is read whole, with or without a Content-Length."""
import io

import testtools
import webob

import nova.conf
from nova.api.openstack import json_body
from nova.api.openstack import wsgi_app
from nova.tests import fixtures as nova_fixtures

CONF = nova.conf.CONF
LIMIT = 114688


def nested(depth):
    """``depth`` nested lists as JSON text."""
    return '[' * depth + ']' * depth


class CountingStream(io.RawIOBase):
    """A 50 MB body of spaces that counts what the server read of it."""

    def __init__(self, size=50 * 1000 * 1000):
        self.read_bytes = 0
        self.size = size

    def readable(self):
        return True

    def readinto(self, buffer):
        count = min(len(buffer), self.size - self.read_bytes)
        buffer[:count] = b' ' * count
        self.read_bytes += count
        return count


class _AppTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Database())
        self.useFixture(nova_fixtures.Policy())
        nova_fixtures.add_service('h1')
        self.app = wsgi_app.load_app()

    def post(self, raw, content_length=True, path='/v2.1/servers'):
        req = webob.Request.blank(path, method='POST' if 'servers' in path else 'PUT',
                                  base_url='http://127.0.0.1:8774')
        req.headers['X-Auth-Token'] = 'admin:admin'
        req.content_type = 'application/json'
        if isinstance(raw, (bytes, str)):
            req.body = raw.encode() if isinstance(raw, str) else raw
        else:
            req.body_file = raw
        if not content_length:           # chunked, as gunicorn hands it over
            req.headers.pop('Content-Length', None)
            req.headers['Transfer-Encoding'] = 'chunked'
            req.environ['wsgi.input_terminated'] = True
        return req.get_response(self.app)

    def assertFault(self, name, code, resp):
        self.assertEqual(code, resp.status_int, resp.body)
        self.assertEqual('application/json; charset=UTF-8', resp.headers['Content-Type'])
        self.assertEqual([name], list(resp.json))
        self.assertEqual(code, resp.json[name]['code'])
        return resp.json[name]['message']


class DeepJSONTest(_AppTest):

    def test_deep_bodies_are_bad_requests(self):
        # past our bound; 990 parsed but overflowed the stack in validation
        # (a 500); 3000 and more overflowed in the decoder (a 500)
        server = '"name": "vm", "imageRef": "%s", "flavorRef": "1"' % nova_fixtures.IMAGE
        for depth in (json_body.MAX_DEPTH, 990, 3000, 50000):
            for raw in ('{"server": {"name": %s}}' % nested(depth),
                        '{"server": {%s, "metadata": %s}}' % (server, nested(depth)),
                        '{"server": {%s}, "os:scheduler_hints": {"x": %s}}' % (
                            server, nested(depth))):
                message = self.assertFault('badRequest', 400, self.post(raw))
                self.assertIn('nested deeper than %d levels' % json_body.MAX_DEPTH, message)
            resp = self.post('{"host": "h1", "binary": %s}' % nested(depth),
                             path='/v2.1/os-services/disable')
            self.assertFault('badRequest', 400, resp)

    def test_hints_within_the_bound_are_accepted(self):
        # the body and the hints are two levels above the lists
        raw = ('{"server": {"name": "vm", "imageRef": "%s", "flavorRef": "1"}, '
               '"os:scheduler_hints": {"x": %%s}}' % nova_fixtures.IMAGE)
        resp = self.post(raw % nested(json_body.MAX_DEPTH - 2))
        self.assertEqual(202, resp.status_int, resp.body)
        self.assertFault('badRequest', 400, self.post(raw % nested(json_body.MAX_DEPTH - 1)))

    def test_lone_surrogates_are_bad_requests(self):
        # they parse, but no database (nor UTF-8) can store them: was a 500
        for raw in ('{"server": {"name": "\\ud800", "imageRef": "%s", "flavorRef": "1"}}',
                    '{"server": {"name": "a", "imageRef": "%s", "flavorRef": "1", '
                    '"metadata": {"k": "\\udfff"}}}'):
            message = self.assertFault('badRequest', 400,
                                       self.post(raw % nova_fixtures.IMAGE))
            self.assertIn('surrogate', message)
        self.assertEqual(202, self.post(
            '{"server": {"name": "\\ud83d\\ude00", "imageRef": "%s", "flavorRef": "1"}}'
            % nova_fixtures.IMAGE).status_int)   # a proper pair is fine


class BodySizeLimitTest(_AppTest):

    def streamed(self, stream, content_length=None, headers=None):
        """POST /servers with ``stream`` as the raw input, as the server hands it."""
        req = webob.Request.blank('/v2.1/servers', method='POST',
                                  base_url='http://127.0.0.1:8774', headers=headers)
        req.headers['X-Auth-Token'] = 'admin:admin'
        req.content_type = 'application/json'
        req.body_file_raw = stream
        req.environ['wsgi.input_terminated'] = True
        req.headers.pop('Content-Length', None)
        if content_length is not None:
            req.headers['Content-Length'] = str(content_length)
        return req.get_response(self.app)

    def test_declared_length_over_the_limit_is_refused_unread(self):
        stream = CountingStream()
        resp = self.streamed(stream, content_length=50 * 1000 * 1000)
        message = self.assertFault('overLimit', 413, resp)
        self.assertEqual(0, stream.read_bytes)
        self.assertIn('max_request_body_size (%d)' % LIMIT, message)
        # the headers of every other response
        self.assertTrue(resp.headers['x-openstack-request-id'].startswith('req-'))
        self.assertEqual(resp.headers['x-openstack-request-id'],
                         resp.headers['x-compute-request-id'])
        self.assertEqual('compute 2.1', resp.headers['OpenStack-API-Version'])
        self.assertEqual('2.1', resp.headers['X-OpenStack-Nova-API-Version'])
        self.assertEqual(['OpenStack-API-Version', 'X-OpenStack-Nova-API-Version'],
                         resp.headers.getall('Vary'))
        resp = self.streamed(CountingStream(), content_length=50 * 1000 * 1000,
                             headers={'OpenStack-API-Version': 'compute 2.16'})
        self.assertFault('overLimit', 413, resp)
        self.assertEqual('compute 2.16', resp.headers['OpenStack-API-Version'])

    def test_chunked_body_over_the_limit_stops_being_read(self):
        stream = CountingStream()
        resp = self.post(io.BufferedReader(stream, 8192), content_length=False)
        message = self.assertFault('overLimit', 413, resp)
        self.assertIn(str(LIMIT), message)
        # webob reads 64 KiB at a time; the limiter stops at the first read past it
        self.assertLess(stream.read_bytes, LIMIT + 2 * 65536)
        self.assertIn('compute 2.1', resp.headers['OpenStack-API-Version'])

    def test_without_length_or_chunks_there_is_no_body(self):
        # HTTP's rule; the limiter is skipped there, so nothing may be read
        stream = CountingStream()
        message = self.assertFault('badRequest', 400, self.streamed(stream))
        self.assertEqual('The request body is empty.', message)
        self.assertEqual(0, stream.read_bytes)

    def test_bodies_at_the_limit_are_served(self):
        raw = '{"server": {"name": "vm", "imageRef": "%s", "flavorRef": "1"}}' % (
            nova_fixtures.IMAGE)
        raw = raw[:-1] + ' ' * (LIMIT - len(raw)) + '}'
        self.assertEqual(LIMIT, len(raw))
        self.assertEqual(202, self.post(raw).status_int)
        self.assertEqual(202, self.post(raw, content_length=False).status_int)
        self.assertFault('overLimit', 413, self.post(raw + ' '))
        self.assertFault('overLimit', 413, self.post(raw + ' ', content_length=False))

    def test_the_limit_is_oslo_middlewares_option(self):
        CONF.set_override('max_request_body_size', 1000, group='oslo_middleware')
        self.addCleanup(CONF.clear_override, 'max_request_body_size',
                        group='oslo_middleware')
        raw = '{"server": {"name": "%s"}}' % ('a' * 1000)
        self.assertFault('overLimit', 413, self.post(raw))
        self.assertFault('overLimit', 413, self.post(raw, content_length=False))
        self.assertFault('badRequest', 400, self.post('{"server": {"name": ""}}'))
