"""Version documents at /, /v2.1/ and the legacy /v2/."""
from nova.api.openstack import api_version_request as avr

UPDATED = '2013-07-23T11:33:21Z'
# Nova's legacy v2.0 entry: deprecated, no microversions, this date
LEGACY_UPDATED = '2025-07-04T12:00:00Z'
LEGACY_PREFIX = '/v2'


def _version(base_url):
    return {
        'id': 'v2.1',
        'status': 'CURRENT',
        'version': avr.MAX_VERSION,
        'min_version': avr.MIN_VERSION,
        'updated': UPDATED,
        'links': [{'rel': 'self', 'href': base_url + '/v2.1/'}],
    }


def _legacy_version(base_url):
    return {
        'id': 'v2.0',
        'status': 'DEPRECATED',
        'version': '',
        'min_version': '',
        'updated': LEGACY_UPDATED,
        'links': [{'rel': 'self', 'href': base_url + LEGACY_PREFIX + '/'}],
    }


def root(req):
    """Both entries, v2.0 first, as Nova lists them."""
    base = req.application_url
    return {'versions': [_legacy_version(base), _version(base)]}


def _document(doc, media_version):
    doc['links'].append({'rel': 'describedby', 'type': 'text/html',
                         'href': 'http://docs.openstack.org/'})
    doc['media-types'] = [{'base': 'application/json',
                           'type': 'application/vnd.openstack.compute+json;version='
                           + media_version}]
    return {'version': doc}


def current(req):
    return _document(_version(req.application_url), '2.1')


def legacy(req):
    """What /v2/ answers: only this document (README: the legacy endpoint)."""
    return _document(_legacy_version(req.application_url), '2')
