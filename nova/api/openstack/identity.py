"""Does a project exist? Asked of Keystone, as Nova asks, before a project
is granted a private flavor.

Behind Keystone (a request keystonemiddleware authenticated) the caller's
own token reads ``GET /v3/projects/{id}`` at ``[keystone_authtoken]
www_authenticate_uri``: 404 is Nova's 400; any other answer, or no answer,
lets the request through, as Nova does when it cannot tell. With noauth2
there is no identity service: every project id is taken as given
(doc/source/differences.rst).
"""
import logging
import urllib.parse

from keystoneauth1 import exceptions as ksa_exc
from keystoneauth1 import session as ksa_session
from oslo_config import cfg

import nova.conf
from nova.api.openstack import faults

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)
_TIMEOUT = 10


def _identity_url():
    try:
        url = CONF.keystone_authtoken.www_authenticate_uri
    except cfg.NoSuchOptError:   # registered once keystonemiddleware is imported
        return None
    if not url:
        return None
    url = url.rstrip('/')
    return url if url.endswith('/v3') else url + '/v3'


def verify_project_id(context, project_id):
    """Raise Nova's 400 when Keystone says ``project_id`` does not exist."""
    token = getattr(context, 'auth_token', None)
    url = _identity_url()
    if not token or not url:
        return
    try:
        resp = ksa_session.Session().get(
            '%s/projects/%s' % (url, urllib.parse.quote(project_id, safe='')),
            headers={'X-Auth-Token': token}, raise_exc=False, timeout=_TIMEOUT)
    except ksa_exc.ClientException as exc:
        LOG.info('could not ask Keystone whether project %s exists: %s', project_id, exc)
        return
    if resp.status_code == 404:
        raise faults.BadRequest('Project ID %s is not a valid project.' % project_id)
    if resp.status_code >= 300:
        LOG.info('Keystone answered %s about project %s; taking it as valid',
                 resp.status_code, project_id)
