"""OpenStack Nova 34's recorded responses (shared/reference/nova-34/) and the
rules for comparing ours with them: key for key, in order, status for
status, headers clients read; ids, times, hostId hashes, URLs, host names
and the maximum microversion excepted."""
import json
import os
import re

from nova.api.openstack import api_version_request as avr
from nova.tests import fixtures as nova_fixtures

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
DEFAULT_DIR = os.path.join(REPO_ROOT, '..', 'shared', 'reference', 'nova-34')
NOVA_MAX_VERSION = '2.104'
# Nova-specific on purpose (README): Nova serves 2.17 and a later "latest";
# the legacy /v2 endpoint is not served by us.
NOT_TARGETS = frozenset(('show-2.17-admin-c-stale.json', 'show-latest-admin-c-stale.json',
                         'versions-v2.json', 'err-mv-2.16-on-v2-legacy.json'))
# Headers whose values clients act on, compared in order.
COMPARED_HEADERS = ('openstack-api-version', 'x-openstack-nova-api-version', 'vary',
                    'content-type', 'www-authenticate', 'x-openstack-request-id',
                    'x-compute-request-id')
FIXED_IDS = frozenset((nova_fixtures.IMAGE,                      # the image
                       '00000000-0000-0000-0000-000000000042'))    # never exists

_URL = re.compile(r'https?://[^/\s"]+')
_UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')
_TIME = re.compile(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?')
_BY_KEY = {
    'hostId': (re.compile(r'^[0-9a-f]{56}$'), '<hash>'),
    'OS-EXT-SRV-ATTR:host': (re.compile(r'.+'), '<host>'),
    'OS-EXT-SRV-ATTR:hypervisor_hostname': (re.compile(r'.+'), '<host>'),
    'OS-EXT-SRV-ATTR:instance_name': (re.compile(r'^instance-[0-9a-f]{8}$'), '<name>'),
    'OS-EXT-SRV-ATTR:reservation_id': (re.compile(r'^r-[0-9a-z]{8}$'), '<reservation>'),
}


def directory():
    path = os.path.abspath(os.environ.get('NOVA_REFERENCE_DIR', DEFAULT_DIR))
    if not os.path.isdir(path):
        raise AssertionError(
            'reference captures not found at %s: clone the shared/ tree beside the '
            'repository (or set NOVA_REFERENCE_DIR)' % path)
    return path


def captures(subdir=None):
    """[(file name, capture dict)] of the targets in the top dir or a subdir."""
    path = directory() if subdir is None else os.path.join(directory(), subdir)
    found = []
    for name in sorted(os.listdir(path)):
        if name.endswith('.json') and name not in NOT_TARGETS and name != 'SUMMARY.json':
            with open(os.path.join(path, name)) as f:
                found.append((name, json.load(f)))
    if not found:
        raise AssertionError('no captures in %s' % path)
    return found


def load(name):
    with open(os.path.join(directory(), name)) as f:
        return json.load(f)


def _string(value, key):
    if key in _BY_KEY:
        pattern, placeholder = _BY_KEY[key]
        if pattern.match(value):
            return placeholder
    value = _URL.sub('<url>', value)
    value = _UUID.sub(lambda m: m.group(0) if m.group(0) in FIXED_IDS else '<id>', value)
    return _TIME.sub('<time>', value)


def normalize(value, key=None, nova=False):
    """Replace what may differ; ``nova`` marks the capture side."""
    if isinstance(value, dict):
        return {k: normalize(v, k, nova) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v, key, nova) for v in value]
    if key == 'progress' and (value is None and nova or isinstance(value, int)):
        # The captures' servers were written straight into Nova's database
        # and show null; built servers (and tempest) have an integer.
        return '<progress>'
    if isinstance(value, str):
        if nova:
            value = value.replace(NOVA_MAX_VERSION, avr.MAX_VERSION)
        return _string(value, key)
    return value


def compared_headers(headers, nova=False):
    picked = []
    for name, value in headers:
        if name.lower() in COMPARED_HEADERS:
            if nova:
                value = value.replace(NOVA_MAX_VERSION, avr.MAX_VERSION)
            picked.append((name.lower(), _UUID.sub('<id>', _URL.sub('<url>', value))))
    return picked


def body(capture):
    """The capture's body as JSON (the 401 body is recorded as a string)."""
    parsed = capture.get('body_json')
    if isinstance(parsed, str):
        parsed = json.loads(parsed)
    return parsed
