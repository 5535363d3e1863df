"""The compute API as one WSGI application.

    /            version list (no auth, ignores the microversion header)
    /v2[/]       the legacy v2.0 version document (no auth, ignores the
                 header); nothing else below /v2 is served
    /v2.1[/]     the v2.1 version document (no auth, microversion checked)
    /v2.1/...    authenticated resources, optionally /v2.1/{project_id}/...
"""
import json
import logging
import urllib.parse
import uuid

import microversion_parse
from oslo_db import exception as db_exc

import nova.conf
from nova import context as nova_context
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import client_documents
from nova.api.openstack import encode
from nova.api.openstack import faults
from nova.api.openstack import router as router_mod
from nova.api.openstack import routes
from nova.api.openstack import sizelimit
from nova.api.openstack import wsgi
from nova.api.openstack.compute import versions
from nova import exception
from nova.metrics import api_requests

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

LEGACY_HEADER = 'X-OpenStack-Nova-API-Version'
VERSIONED_PREFIX = '/v2.1'
UNAUTHORIZED_BODY = json.dumps({'error': {
    'code': 401, 'title': 'Unauthorized',
    'message': 'The request you have made requires authentication.'}}).encode()


def version_headers(version):
    text = str(version)
    return [('OpenStack-API-Version', 'compute ' + text),
            (LEGACY_HEADER, text),
            ('Vary', 'OpenStack-API-Version'),
            ('Vary', LEGACY_HEADER)]


def check_query_string(query):
    """webob would fail deep inside a controller on undecodable parameters."""
    if '%' in query:
        try:
            urllib.parse.unquote_to_bytes(query).decode('utf-8')
        except UnicodeDecodeError:
            raise faults.BadRequest('The query string is not valid UTF-8.')


def requested_version(req):
    """The request's microversion; a fault for malformed or unsupported ones."""
    text = microversion_parse.get_version(
        req.headers, 'compute', legacy_headers=[LEGACY_HEADER])
    if text is None:
        return avr.min_version()
    if text == 'latest':
        return avr.max_version()
    try:
        version = avr.APIVersionRequest(text)
    except avr.InvalidFormat as exc:
        raise faults.BadRequest(str(exc))
    if not version.supported():
        fault = faults.Fault(406, avr.unsupported_message(text))
        fault.headers = version_headers(text)
        raise fault
    return version


def call_handler(handler, req, kwargs):
    """Run ``handler``. A read (GET/HEAD) whose database connection dropped
    under it (a server restart, a failover, a killed session) runs once
    more: the failure invalidated the pool, so the second run connects
    afresh. When the database is really away that fails at once too, and
    the client gets 503."""
    try:
        return handler(req, **kwargs)
    except db_exc.DBConnectionError:
        if req.method not in ('GET', 'HEAD'):
            raise
        LOG.warning('database connection lost during %s %s; reading again',
                    req.method, req.path)
        return handler(req, **kwargs)


class ComputeAPI:
    """The WSGI callable; ``auth_strategy`` is noauth2 or keystone."""

    def __init__(self, auth_strategy=None):
        self.router = router_mod.Router(routes.route_declarations())
        self.auth_strategy = auth_strategy or CONF.api.auth_strategy
        self._protected = self._authenticated_app
        if self.auth_strategy == 'keystone':
            from keystonemiddleware import auth_token
            self._protected = auth_token.AuthProtocol(self._authenticated_app, {})

    def __call__(self, environ, start_response):
        request_id = 'req-' + str(uuid.uuid4())
        environ['openstack.request_id'] = request_id
        id_headers = [('x-openstack-request-id', request_id),
                      ('x-compute-request-id', request_id)]

        def start(status, headers, exc_info=None):
            return start_response(status, headers + id_headers, exc_info)

        path = environ.get('PATH_INFO', '') or '/'
        if self.auth_strategy == 'noauth2':
            served = client_documents.app(environ, start)
            if served is not None:
                return served
        if path == '/':
            environ[api_requests.ROUTE_KEY] = '/'
            # Nova serves its version list outside the request-id middleware
            req = wsgi.Request(environ)
            return self._respond(start_response, 200, versions.root(req), [])
        if path.rstrip('/') == VERSIONED_PREFIX:
            environ[api_requests.ROUTE_KEY] = VERSIONED_PREFIX
            req = wsgi.Request(environ)
            try:
                version = requested_version(req)
            except faults.Fault as fault:
                return self._fault(start, fault)
            return self._respond(start, 200, versions.current(req), version_headers(version))
        if path.rstrip('/') == versions.LEGACY_PREFIX:
            environ[api_requests.ROUTE_KEY] = versions.LEGACY_PREFIX
            return self._respond(start, 200, versions.legacy(wsgi.Request(environ)), [])
        if not path.startswith(VERSIONED_PREFIX + '/'):
            return self._fault(start, faults.NotFound())
        too_large = sizelimit.limit(environ)
        if too_large is not None:
            # refused before authentication, as Nova's pipeline does
            return self._fault(start, self._with_version(too_large, self._version_or_none(
                wsgi.Request(environ))))
        return self._protected(environ, start)

    @staticmethod
    def _version_or_none(req):
        try:
            return requested_version(req)
        except faults.Fault:
            return None

    def _authenticated_app(self, environ, start):
        req = wsgi.Request(environ)
        request_id = environ['openstack.request_id']
        version = None
        try:
            if self.auth_strategy == 'keystone':
                req.context = nova_context.from_keystone_environ(environ, request_id)
            else:
                token = req.headers.get('X-Auth-Token')
                if not token:
                    return self._unauthorized(req, start)
                req.context = nova_context.from_noauth2_token(token, request_id)
            version = requested_version(req)
            req.api_version = version
            check_query_string(environ.get('QUERY_STRING', ''))
            project_id, subpath = self.router.split_project(
                req.path_info[len(VERSIONED_PREFIX):])
            if project_id is not None and project_id != req.context.project_id:
                raise faults.BadRequest(
                    "Malformed request URL: URL's project_id '%s' doesn't match "
                    "Context's project_id '%s'" % (project_id, req.context.project_id))
            req.project_in_path = project_id
            template, handler, kwargs = self.router.match_route(req.method, subpath)
            environ[api_requests.ROUTE_KEY] = template
            result = call_handler(handler, req, kwargs)
            code = req.response_code or getattr(handler, 'success_code', 200)
            return self._respond(start, code, result,
                                 list(req.response_headers) + version_headers(version))
        except faults.Fault as fault:
            if version is not None and not hasattr(fault, 'headers'):
                fault.headers = version_headers(version)
            return self._fault(start, fault)
        except exception.NovaException as exc:
            fault = faults.from_exception(exc)
            if fault.code == 500:
                LOG.exception('unexpected error')
            elif fault.code > 500:
                LOG.warning('%s %s: %s', req.method, req.path, exc)
            return self._fault(start, self._with_version(fault, version))
        except faults.DB_UNAVAILABLE as exc:
            # Expected during an outage, or while a process frozen mid-write
            # holds SQLite's lock: one line per request, no traceback.
            LOG.warning('database unavailable: %s', exc)
            return self._fault(start, self._with_version(faults.from_exception(exc), version))
        except Exception:
            LOG.exception('unexpected error')
            return self._fault(start, self._with_version(
                faults.Fault(500, faults.UNEXPECTED), version))

    @staticmethod
    def _with_version(fault, version):
        if version is not None:
            fault.headers = version_headers(version)
        return fault

    @staticmethod
    def _respond(start, code, result, extra_headers):
        if result is None and code == 204:
            start(faults.status_line(code), extra_headers)
            return [b'']
        # Nova types every other answer as JSON, an empty one (an action's) too
        body = b'' if result is None else encode.dumps(result)
        headers = [('Content-Length', str(len(body))),
                   ('Content-Type', wsgi.JSON_CONTENT_TYPE)] + extra_headers
        start(faults.status_line(code), headers)
        return [body]

    @staticmethod
    def _fault(start, fault):
        body = faults.body(fault.code, fault.message)
        headers = list(getattr(fault, 'headers', [])) + [
            ('Content-Type', faults.FAULT_CONTENT_TYPE),
            ('Content-Length', str(len(body)))]
        start(faults.status_line(fault.code), headers)
        return [body]

    @staticmethod
    def _unauthorized(req, start):
        start('401 Unauthorized', [
            ('Content-Type', 'application/json'),
            ('Content-Length', str(len(UNAUTHORIZED_BODY))),
            ('WWW-Authenticate', 'Keystone uri="%s/identity"' % req.host_url)])
        return [UNAUTHORIZED_BODY]
