"""Request and response helpers shared by every controller."""
import webob
import webob.exc

from nova.api.openstack import faults
from nova.api.openstack import json_body
from nova.api.openstack import sizelimit

JSON_CONTENT_TYPE = 'application/json'


class Request(webob.Request):
    """A webob request that also carries the caller and the microversion."""

    context = None
    api_version = None
    project_in_path = None
    response_headers = ()     # extra headers a controller sets, e.g. Location
    response_code = None      # a success status other than the handler's own

    def at_least(self, version):
        """True when the request's microversion is at least ``version``."""
        return self.api_version.at_least(version)

    def json_body(self, empty='The request body is empty.'):
        """The body as JSON; ``empty``: the 400 message for no body."""
        try:
            raw = self.body
        except webob.exc.HTTPRequestEntityTooLarge:
            # a body without Content-Length (chunked) ran past the limit while
            # being read: see sizelimit.py
            raise sizelimit.too_large()
        if not raw:
            raise faults.BadRequest(empty)
        content_type = self.content_type
        if content_type and content_type not in ('application/json', 'text/plain'):
            raise faults.Fault(415, 'Unsupported Content-Type')
        return json_body.loads(raw)


def status(code):
    """Decorator: the success status of a controller method (default 200)."""
    def decorate(func):
        func.success_code = code
        return func
    return decorate
