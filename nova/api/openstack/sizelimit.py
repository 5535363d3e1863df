"""Request bodies over [oslo_middleware] max_request_body_size: 413 overLimit.

As oslo.middleware's limiter (the one OpenStack Nova's pipeline runs), a
declared Content-Length over the limit is refused before the application
reads a byte, and a body of unknown length (chunked) is wrapped in its
LimitingReader, which raises once the limit is passed, so neither is ever
read whole. The API answers both in its JSON fault form, with the request
id and version headers of every other response: the first from
app.ComputeAPI (which calls limit() before anything else of the request),
the second from wsgi.Request.json_body.
"""
import io

import webob
from oslo_middleware import sizelimit

import nova.conf
from nova.api.openstack import faults

CONF = nova.conf.CONF


def too_large():
    """The 413 overLimit fault for a body over the limit."""
    return faults.Fault(413, 'Request is too large. Larger than max_request_body_size (%d).'
                        % CONF.oslo_middleware.max_request_body_size)


def limit(environ):
    """The 413 fault when the request declares a body over the limit, else
    None, the request's body then limited as it is read."""
    if (environ.get('CONTENT_LENGTH') in (None, '', '0')
            and not environ.get('HTTP_TRANSFER_ENCODING')):
        # Neither a length nor chunks: HTTP says there is no body, and
        # nothing can read one. Most requests (GET) go straight on, without
        # the webob objects the limiting costs.
        environ['wsgi.input'] = io.BytesIO()
        return None
    max_size = CONF.oslo_middleware.max_request_body_size
    req = webob.Request(environ)
    if req.content_length is None:
        req.body_file = sizelimit.LimitingReader(req.body_file, max_size)
    elif req.content_length > max_size:
        return too_large()
    return None
