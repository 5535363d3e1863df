"""Oversized requests against the real nova-api under gunicorn, over raw
sockets so the test controls what is sent and when: a body over
[oslo_middleware] max_request_body_size is refused with 413 overLimit while
the client has sent none of it (declared length) or only a little past the
limit (chunked, never terminated), so the server cannot have waited for the
rest; and what gunicorn itself refuses before the app runs."""
import json
import socket


from nova.tests.functional import fixtures as func

LIMIT = 114688
FIFTY_MB = 50 * 1000 * 1000


class RawHTTP:
    """One HTTP/1.1 exchange on a plain socket."""

    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=60)

    def send(self, data):
        self.sock.sendall(data)

    def head(self, method, path, headers):
        lines = ['%s %s HTTP/1.1' % (method, path), 'Host: 127.0.0.1',
                 'X-Auth-Token: admin:admin', 'Content-Type: application/json']
        lines += ['%s: %s' % item for item in headers]
        self.send(('\r\n'.join(lines) + '\r\n\r\n').encode())

    def response(self):
        """(status, headers, body) once the server has answered and closed."""
        data = b''
        while True:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            data += chunk
        self.sock.close()
        head, _, body = data.partition(b'\r\n\r\n')
        lines = head.decode('latin-1').split('\r\n')
        headers = dict(line.split(': ', 1) for line in lines[1:])
        return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


class RequestLimitsTest(func.SharedAllInOneTestCase):
    ALL_IN_ONE = dict(hosts=1)

    def assertOverLimit(self, status, headers, body):
        self.assertEqual(413, status, body)
        self.assertEqual('application/json; charset=UTF-8', headers['content-type'])
        fault = json.loads(body)
        self.assertEqual(['overLimit'], list(fault))
        self.assertEqual(413, fault['overLimit']['code'])
        self.assertIn('max_request_body_size (%d)' % LIMIT, fault['overLimit']['message'])
        # as every other response: the request id and the version headers
        self.assertTrue(headers['x-openstack-request-id'].startswith('req-'), headers)
        self.assertEqual('compute 2.1', headers['openstack-api-version'])

    def test_declared_fifty_megabytes_refused_before_a_byte_is_sent(self):
        http = RawHTTP(self.nova.port)
        http.head('POST', '/v2.1/servers', [('Content-Length', FIFTY_MB)])
        # not one byte of the body has left this process: the answer can only
        # come from the declared length
        self.assertOverLimit(*http.response())

    def test_chunked_body_refused_once_past_the_limit(self):
        http = RawHTTP(self.nova.port)
        http.head('POST', '/v2.1/servers', [('Transfer-Encoding', 'chunked')])
        chunk = b' ' * 16384
        sent = 0
        while sent <= LIMIT + 65536:     # webob reads 64 KiB at a time
            http.send(b'%x\r\n%s\r\n' % (len(chunk), chunk))
            sent += len(chunk)
        # the terminating chunk is never sent: a server that wanted the whole
        # body would wait here until the socket timed out
        status, headers, body = http.response()
        self.assertOverLimit(status, headers, body)
        self.assertEqual('compute 2.1', headers['openstack-api-version'])

    def test_bodies_under_the_limit_are_served_chunked_too(self):
        body = json.dumps({'server': {'name': 'chunked', 'imageRef': func.IMAGE,
                                      'flavorRef': '1'}}).encode()
        http = RawHTTP(self.nova.port)
        http.head('POST', '/v2.1/servers', [('Transfer-Encoding', 'chunked'),
                                            ('Connection', 'close')])
        http.send(b'%x\r\n%s\r\n0\r\n\r\n' % (len(body), body))
        status, _, reply = http.response()
        self.assertEqual(202, status, reply)

    def test_gunicorns_own_refusals(self):
        # answered by gunicorn before the app runs, in its own (HTML) form
        cases = [
            ('/v2.1/servers?name=' + 'a' * 5000, [], 414),                  # line > 4094
            ('/v2.1/servers', [('X-Big', 'a' * 9000)], 431),                  # field > 8190
            ('/v2.1/servers', [('X-H%d' % i, 'v') for i in range(120)], 431),  # > 100 fields
        ]
        for path, headers, expected in cases:
            http = RawHTTP(self.nova.port)
            http.head('GET', path, headers)
            status, response_headers, body = http.response()
            self.assertEqual(expected, status, (path[:40], len(headers), body[:200]))
            self.assertNotIn('x-openstack-request-id', response_headers)
