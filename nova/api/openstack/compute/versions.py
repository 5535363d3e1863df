"""Version documents at / and /v2.1/."""
from nova.api.openstack import api_version_request as avr

UPDATED = '2013-07-23T11:33:21Z'


def _version(base_url):
    return {
        'id': 'v2.1',
        'status': 'CURRENT',
        'version': avr.MAX_VERSION,
        'min_version': avr.MIN_VERSION,
        'updated': UPDATED,
        'links': [{'rel': 'self', 'href': base_url + '/v2.1/'}],
    }


def root(req):
    return {'versions': [_version(req.application_url)]}


def current(req):
    doc = _version(req.application_url)
    doc['links'].append({'rel': 'describedby', 'type': 'text/html',
                         'href': 'http://docs.openstack.org/'})
    doc['media-types'] = [{'base': 'application/json',
                           'type': 'application/vnd.openstack.compute+json;version=2.1'}]
    return {'version': doc}
