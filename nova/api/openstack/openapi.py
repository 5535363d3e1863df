"""An OpenAPI 3.1 document of the API below /v2.1, made from the route
table and the JSON schemas the handlers validate with (their
``validation.documented`` records): nothing is written twice, so it cannot
drift from what is served. ``python -m nova.api.openstack.openapi`` prints it.

It describes the shapes clients rely on, not every key (tempest's response
schemas and the reference captures judge those); every 4xx is Nova's JSON
fault body.
"""
import json
import re
import sys

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import faults
from nova.api.openstack import routes

_PLACEHOLDER = re.compile(r'\{(\w+)\}')

FAULT = {
    'type': 'object', 'minProperties': 1, 'maxProperties': 1,
    'propertyNames': {'enum': sorted(set(faults.FAULT_NAMES.values()) | {'computeFault'})},
    'additionalProperties': {
        'type': 'object', 'required': ['code', 'message'],
        'properties': {'code': {'type': 'integer'}, 'message': {'type': 'string'}}},
}
# keystonemiddleware's form, which Nova answers too
UNAUTHORIZED = {
    'type': 'object', 'required': ['error'],
    'properties': {'error': {'type': 'object', 'required': ['code', 'title', 'message']}},
}
_VERSION_HEADER = {
    'name': 'OpenStack-API-Version', 'in': 'header', 'required': False,
    'description': 'compute <major.minor> or compute latest (no header: %s)'
                   % avr.MIN_VERSION,
    'schema': {'type': 'string'},
}


# Where a response names what another operation takes (OpenAPI links:
# stateful fuzzers follow them to reach real resources).
_LINKS = {
    'POST /servers': {
        'show': ('GET /servers/{server_id}', {'server_id': '$response.body#/server/id'}),
        'delete': ('DELETE /servers/{server_id}', {'server_id': '$response.body#/server/id'}),
    },
    'GET /flavors': {
        'show': ('GET /flavors/{flavor_id}', {'flavor_id': '$response.body#/flavors/0/id'}),
    },
}


def _links(operation_id):
    return {name: {'operationId': target, 'parameters': parameters}
            for name, (target, parameters) in _LINKS.get(operation_id, {}).items()}


def _json(schema):
    return {'application/json': {'schema': schema}}


def _operation(method, template, handler):
    doc = getattr(handler, 'api_doc', None)
    if doc is None:
        raise LookupError('%s %s: its handler has no validation.documented record'
                          % (method, template))
    parameters = [_VERSION_HEADER]
    for name in _PLACEHOLDER.findall(template):
        parameters.append({'name': name, 'in': 'path', 'required': True,
                           'schema': doc['path'].get(name, {'type': 'string'})})
    for name, schema in sorted(doc['query'].items()):
        parameters.append({'name': name, 'in': 'query', 'required': False,
                           'schema': schema})
    code = getattr(handler, 'success_code', 200)
    operation_id = '%s %s' % (method, template)
    success = {'description': 'success'}
    if doc['response'] is not None:
        success['content'] = _json(doc['response'])
    if operation_id in _LINKS:
        success['links'] = _links(operation_id)
    operation = {
        'operationId': operation_id,
        'parameters': parameters,
        'responses': {
            str(code): success,
            '401': {'description': 'no or bad token', 'content': _json(UNAUTHORIZED)},
            '4XX': {'description': "Nova's fault body", 'content': _json(FAULT)}},
    }
    if doc['body'] is not None:
        operation['requestBody'] = {'required': True, 'content': _json(doc['body'])}
    return operation


def document():
    paths = {}
    for template, methods in routes.route_declarations().items():
        paths[template] = {method.lower(): _operation(method, template, handler)
                           for method, handler in methods.items()}
    return {
        'openapi': '3.1.0',
        'info': {'title': 'Compute API (Nova-compatible)', 'version': avr.MAX_VERSION},
        'servers': [{'url': '/v2.1'}],
        'components': {'securitySchemes': {'token': {
            'type': 'apiKey', 'in': 'header', 'name': 'X-Auth-Token'}}},
        'security': [{'token': []}],
        'paths': paths,
    }


def main():
    json.dump(document(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
