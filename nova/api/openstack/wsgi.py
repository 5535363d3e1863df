"""Request and response helpers shared by every controller."""
import json

import webob

from nova.api.openstack import faults

JSON_CONTENT_TYPE = 'application/json'


class Request(webob.Request):
    """A webob request that also carries the caller and the microversion."""

    context = None
    api_version = None
    project_in_path = None
    response_headers = ()     # extra headers a controller sets, e.g. Location

    def at_least(self, version):
        """True when the request's microversion is at least ``version``."""
        return self.api_version.at_least(version)

    def json_body(self):
        if not self.body:
            raise faults.BadRequest('The request body is empty.')
        content_type = self.content_type
        if content_type and content_type not in ('application/json', 'text/plain'):
            raise faults.Fault(415, 'Unsupported Content-Type')
        try:
            return json.loads(self.body)
        except ValueError:
            raise faults.BadRequest('Malformed request body')


def status(code):
    """Decorator: the success status of a controller method (default 200)."""
    def decorate(func):
        func.success_code = code
        return func
    return decorate
