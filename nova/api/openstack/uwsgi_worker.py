"""The WSGI application of one nova-api worker under uWSGI (nova-api's
default server, nova/cmd/api_uwsgi.py). uWSGI imports this module in each
worker after the fork (``--lazy-apps``), so every worker builds its own
app, engine and policy enforcer, as under gunicorn.

The environment carries what nova-api was started with: NOVA_API_ARGV (its
command line, JSON) and NOVA_API_REQUEST_METRICS ("1": count requests for
the master's metrics, prometheus_client's multiprocess files).

Two things gunicorn does that uWSGI's HTTP socket leaves to the app: the
request line and header limits (header_limits), and a chunked body, which
uWSGI hands over still chunked: ChunkedInput reads it with
``uwsgi.chunked_read`` as the app asks for bytes, so the body limit
(sizelimit) still refuses a body the moment it passes the limit."""
import email.utils
import json
import os
import socket
import time

import uwsgi

from nova import config
from nova.api.openstack import header_limits
from nova.api.openstack import wsgi_app


class ChunkedInput:
    """A file over ``uwsgi.chunked_read``: the de-chunked body, read as asked."""

    def __init__(self):
        self.buffer = b''
        self.done = False

    def _fill(self, size):
        while not self.done and (size < 0 or len(self.buffer) < size):
            chunk = uwsgi.chunked_read()
            if not chunk:
                self.done = True
            else:
                self.buffer += chunk

    def read(self, size=-1):
        size = -1 if size is None else size
        self._fill(size)
        if size < 0:
            data, self.buffer = self.buffer, b''
        else:
            data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def readline(self, size=-1):
        return self.read(size)


LINGER_SECONDS = 2
LINGER_BYTES = 4 * 1024 * 1024


def linger(fd):
    """Close a connection whose body was left unread (a 413) without
    resetting it: closing a socket with unread bytes sends a reset, which
    can destroy the answer before the client reads it. Send our end's FIN,
    then discard what still comes for a bounded time."""
    sock = socket.socket(fileno=os.dup(fd))
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + LINGER_SECONDS
        read = 0
        while read < LINGER_BYTES:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            sock.settimeout(left)
            data = sock.recv(65536)
            if not data:
                break
            read += len(data)
    except OSError:
        pass
    finally:
        sock.close()


class _Lingering:
    """The app's response; once it is sent, a lingering close when the
    chunked body was not read to its end."""

    def __init__(self, response, body):
        self.response, self.body = response, body

    def __iter__(self):
        return iter(self.response)

    def close(self):
        if hasattr(self.response, 'close'):
            self.response.close()
        if not self.body.done:
            linger(uwsgi.connection_fd())


class _Date:
    """The Date header HTTP/1.1 asks of a server with a clock (gunicorn
    sends it; uWSGI does not), formatted once a second."""

    def __init__(self):
        self.second, self.text = None, None

    def now(self):
        second = int(time.time())
        if second != self.second:
            self.second, self.text = second, email.utils.formatdate(second, usegmt=True)
        return self.text


class UWSGIAdapter:
    def __init__(self, application, keep_alive=True):
        self.application = application
        self.keep_alive = keep_alive
        self.date = _Date()

    def __call__(self, environ, start_response):
        date, close = self.date, not self.keep_alive

        def respond(status, headers, exc_info=None):
            headers = headers + [('Date', date.now())]
            # uWSGI's --http-socket closes after each answer without saying
            # so; an HTTP/1.1 client would reuse the connection and fail
            if close and not any(name.lower() == 'connection' for name, _ in headers):
                headers.append(('Connection', 'close'))
            return start_response(status, headers, exc_info)
        return self._serve(environ, respond)

    def _serve(self, environ, start_response):
        refused = header_limits.refusal(environ, start_response)
        if refused is not None:
            return refused
        if (not environ.get('CONTENT_LENGTH')
                and environ.get('HTTP_TRANSFER_ENCODING', '').lower() == 'chunked'):
            body = environ['wsgi.input'] = ChunkedInput()
            environ['wsgi.input_terminated'] = True
            return _Lingering(self.application(environ, start_response), body)
        return self.application(environ, start_response)


def _application():
    config.parse_args(json.loads(os.environ.get('NOVA_API_ARGV', '[]')))
    app = wsgi_app.load_app(request_metrics=os.environ.get('NOVA_API_REQUEST_METRICS') == '1')
    wsgi_app.serve()
    return UWSGIAdapter(app, keep_alive=wsgi_app.CONF.api.keep_alive)


application = _application()
