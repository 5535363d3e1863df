"""Nova's JSON fault bodies: ``{"<name>": {"code": N, "message": "..."}}``,
and the one place where a domain exception (nova.exception) or a database
error (oslo.db's) becomes one."""
import http
import json

from oslo_db import exception as db_exc

from nova import exception

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
UNEXPECTED = ('Unexpected API Error. Please report this at the project\'s bug tracker '
              'and attach the logs, if possible.')


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


# each kind of domain exception -> its HTTP status
_EXCEPTION_CODES = (
    (exception.NotFound, 404),
    (exception.Invalid, 400),
    (exception.Forbidden, 403),
    (exception.Conflict, 409),
    (exception.ServiceUnavailable, 503),
)


# the database errors that a retry in a moment may get past -> their 503's
# message (nova.db.engine makes SQLite's "database is locked" a DBDeadlock);
# any other database error is a 500
_DB_UNAVAILABLE = (
    (db_exc.DBConnectionError, 'The database is unavailable; try again shortly.'),
    (db_exc.DBDeadlock, 'The database is busy; try again shortly.'),
)
DB_UNAVAILABLE = tuple(kind for kind, _ in _DB_UNAVAILABLE)


def from_exception(exc):
    """The fault a domain exception or one of DB_UNAVAILABLE answers with
    (500 for an unknown kind)."""
    for kind, code in _EXCEPTION_CODES:
        if isinstance(exc, kind):
            return Fault(code, exc.message)
    for kind, message in _DB_UNAVAILABLE:
        if isinstance(exc, kind):
            return Fault(503, message)
    return Fault(500, UNEXPECTED)


def body(code, message):
    name = FAULT_NAMES.get(code, 'computeFault')
    return json.dumps({name: {'code': code, 'message': message}}).encode()


def status_line(code):
    return '%d %s' % (code, http.HTTPStatus(code).phrase)
