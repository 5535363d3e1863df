"""The request line and header limits of nova-api, the same under every
server: a request line over 4094 bytes answers 414, a header field over
8190 bytes or more than 100 header fields 431, before the app runs and in
plain text, as gunicorn answers its own limits of the same sizes. uWSGI
has no such limits of its own (only its buffer, [api] buffer_size, the
whole request head: past it the connection is closed unanswered)."""

MAX_LINE = 4094
MAX_FIELD = 8190
MAX_FIELDS = 100


def _refuse(start_response, status, reason):
    body = reason.encode()
    start_response(status, [('Content-Type', 'text/plain'),
                            ('Content-Length', str(len(body))),
                            ('Connection', 'close')])
    return [body]


def _line_length(environ):
    uri = environ.get('REQUEST_URI')
    if uri is None:
        uri = environ.get('PATH_INFO', '') + (
            '?' + environ['QUERY_STRING'] if environ.get('QUERY_STRING') else '')
    # METHOD SP URI SP HTTP/1.1
    return len(environ.get('REQUEST_METHOD', '')) + len(uri) + 10


def refusal(environ, start_response):
    """The 414/431 answer for a request over the limits, else None."""
    if _line_length(environ) > MAX_LINE:
        return _refuse(start_response, '414 Request-URI Too Long',
                       'Request line over %d bytes' % MAX_LINE)
    fields = 0
    for key, value in environ.items():
        if key.startswith('HTTP_') or (key in ('CONTENT_TYPE', 'CONTENT_LENGTH') and value):
            fields += 1
            if len(key) + len(value) > MAX_FIELD:
                return _refuse(start_response, '431 Request Header Fields Too Large',
                               'Header field over %d bytes' % MAX_FIELD)
    if fields > MAX_FIELDS:
        return _refuse(start_response, '431 Request Header Fields Too Large',
                       'More than %d header fields' % MAX_FIELDS)
    return None
