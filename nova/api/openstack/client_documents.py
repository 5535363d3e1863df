"""Read-only documents that real clients look for when there is no Keystone
and no Glance (noauth2 only; behind Keystone the real services answer).

keystoneauth's ``admin_token`` plugin resolves every service type to the
one endpoint it was given, so:

* ``nova boot --image`` asks ``{compute endpoint}/v2/images...``:
  served at ``/v2.1/v2/images[/{id}]``;
* openstackclient/openstacksdk find images through an image endpoint:
  served at ``/image`` (``OS_IMAGE_ENDPOINT_OVERRIDE=http://host:port/image``);
* ``openstack server list`` insists on an identity v3 endpoint before it
  lists anything: a version document is served at ``/identity/v3``
  (``OS_IDENTITY_ENDPOINT_OVERRIDE=http://host:port/identity/v3``).

The image catalog is fixed: it only lets clients turn ``cirros`` into the
image id that ``POST /servers`` records (the fake driver boots anything).
"""
import json
import re

import webob

IMAGES = (
    {'id': '155d900f-4e14-4e4c-a73d-069cbf4541e6', 'name': 'cirros',
     'disk_format': 'qcow2'},
)
_CREATED = '2026-01-01T00:00:00Z'
IDENTITY_VERSION = {
    'id': 'v3.14', 'status': 'stable', 'updated': '2020-04-07T00:00:00Z',
    'media-types': [{'base': 'application/json',
                     'type': 'application/vnd.openstack.identity-v3+json'}],
}
IMAGE_VERSION = {'id': 'v2.16', 'status': 'CURRENT'}

_PREFIXES = ('/identity', '/image', '/v2.1/v2/')
_IMAGE_PATH = re.compile(r'^(?:/v2\.1/v2|/image/v2)/images(?:/(?P<id>[^/]+))?/?$')


def _image(image):
    doc = {
        'id': image['id'], 'name': image['name'], 'status': 'active',
        'visibility': 'public', 'protected': False, 'os_hidden': False,
        'container_format': 'bare', 'disk_format': image['disk_format'],
        'min_disk': 0, 'min_ram': 0, 'size': None, 'virtual_size': None,
        'checksum': None, 'owner': None, 'tags': [],
        'created_at': _CREATED, 'updated_at': _CREATED,
        'self': '/v2/images/' + image['id'],
        'file': '/v2/images/%s/file' % image['id'],
        'schema': '/v2/schemas/image',
    }
    return doc


def _images(query):
    found = [_image(i) for i in IMAGES]
    for key in ('id', 'name', 'status', 'visibility'):
        if key in query:
            value = query[key]       # Glance's "in:a,b" operator, or one value
            allowed = value[3:].split(',') if value.startswith('in:') else [value]
            found = [i for i in found if i[key] in allowed]
    if query.get('marker'):
        ids = [i['id'] for i in found]
        found = found[ids.index(query['marker']) + 1:] if query['marker'] in ids else []
    return {'images': found, 'schema': '/v2/schemas/images', 'first': '/v2/images'}


def respond(req):
    """(status, body dict) for a path this module serves, else None."""
    path = req.path_info
    if req.method not in ('GET', 'HEAD'):
        return None
    base = req.application_url
    if path.rstrip('/') == '/identity':
        version = dict(IDENTITY_VERSION, links=[
            {'rel': 'self', 'href': base + '/identity/v3/'}])
        return 300, {'versions': {'values': [version]}}
    if path.rstrip('/') == '/identity/v3':
        return 200, {'version': dict(IDENTITY_VERSION, links=[
            {'rel': 'self', 'href': base + '/identity/v3/'}])}
    if path.rstrip('/') in ('/image', '/image/versions'):
        return 300, {'versions': [dict(IMAGE_VERSION, links=[
            {'rel': 'self', 'href': base + '/image/v2/'}])]}
    match = _IMAGE_PATH.match(path)
    if not match:
        return None
    image_id = match.group('id')
    if image_id is None:
        return 200, _images(req.GET)
    for image in IMAGES:
        if image['id'] == image_id:
            return 200, _image(image)
    return 404, {'message': 'No image found with ID %s' % image_id, 'code': '404 Not Found',
                 'title': 'Not Found'}


def app(environ, start_response):
    """A WSGI answer if the request is for one of these documents, else None."""
    if not environ.get('PATH_INFO', '').startswith(_PREFIXES):
        return None
    req = webob.Request(environ)
    answer = respond(req)
    if answer is None:
        return None
    status, doc = answer
    body = json.dumps(doc).encode()
    reason = {200: 'OK', 300: 'Multiple Choices', 404: 'Not Found'}[status]
    start_response('%d %s' % (status, reason), [
        ('Content-Type', 'application/json'), ('Content-Length', str(len(body)))])
    return [b''] if req.method == 'HEAD' else [body]
