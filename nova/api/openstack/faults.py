"""Nova's JSON fault bodies: ``{"<name>": {"code": N, "message": "..."}}``."""
import http
import json

FAULT_NAMES = {
    400: 'badRequest',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'itemNotFound',
    405: 'badMethod',
    409: 'conflictingRequest',
    413: 'overLimit',
    415: 'badMediaType',
    429: 'overLimit',
    501: 'notImplemented',
    503: 'serviceUnavailable',
}
FAULT_CONTENT_TYPE = 'application/json; charset=UTF-8'


class Fault(Exception):
    """Raised anywhere in a request; the app turns it into a fault response."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class BadRequest(Fault):
    def __init__(self, message):
        super().__init__(400, message)


class Forbidden(Fault):
    def __init__(self, message):
        super().__init__(403, message)


class NotFound(Fault):
    def __init__(self, message='The resource could not be found.'):
        super().__init__(404, message)


class Conflict(Fault):
    def __init__(self, message):
        super().__init__(409, message)


class PolicyNotAuthorized(Forbidden):
    def __init__(self, action):
        super().__init__("Policy doesn't allow %s to be performed." % action)


class InstanceNotFound(NotFound):
    def __init__(self, instance_id):
        super().__init__('Instance %s could not be found.' % instance_id)


def body(code, message):
    name = FAULT_NAMES.get(code, 'computeFault')
    return json.dumps({name: {'code': code, 'message': message}}).encode()


def status_line(code):
    return '%d %s' % (code, http.HTTPStatus(code).phrase)
