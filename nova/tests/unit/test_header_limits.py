"""The request line and header limits nova-api keeps under uWSGI (gunicorn
keeps the same itself): 414 past 4094 bytes of request line, 431 past 8190
bytes of one header field or 100 fields; anything within them reaches the app."""
import testtools

from nova.api.openstack import header_limits


def environ(uri='/v2.1/servers', headers=()):
    env = {'REQUEST_METHOD': 'GET', 'REQUEST_URI': uri, 'PATH_INFO': uri.split('?')[0],
           'CONTENT_TYPE': '', 'CONTENT_LENGTH': ''}
    for name, value in headers:
        env['HTTP_' + name.upper().replace('-', '_')] = value
    return env


class HeaderLimitsTest(testtools.TestCase):

    def refused(self, env):
        answered = []
        body = header_limits.refusal(env, lambda status, headers: answered.append(status))
        return (answered[0].split()[0], b''.join(body)) if body is not None else None

    def test_within_the_limits_the_app_answers(self):
        self.assertIsNone(self.refused(environ('/v2.1/servers?name=' + 'a' * 4000)))
        self.assertIsNone(self.refused(environ(headers=[('X-Big', 'a' * 8000)])))
        self.assertIsNone(self.refused(environ(headers=[('X-H%d' % i, 'v')
                                                        for i in range(97)])))

    def test_a_long_request_line_is_414(self):
        status, body = self.refused(environ('/v2.1/servers?name=' + 'a' * 5000))
        self.assertEqual('414', status)
        self.assertIn(b'4094', body)

    def test_a_long_header_field_is_431(self):
        self.assertEqual('431', self.refused(environ(headers=[('X-Big', 'a' * 9000)]))[0])

    def test_too_many_header_fields_is_431(self):
        self.assertEqual('431', self.refused(environ(headers=[('X-H%d' % i, 'v')
                                                              for i in range(120)]))[0])
