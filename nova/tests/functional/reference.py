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
# Nova-specific on purpose (README): Nova's "latest" is later than ours;
# below the legacy /v2 endpoint only its version document is served.
NOT_TARGETS = frozenset(('show-latest-admin-c-stale.json',
                         'err-mv-2.16-on-v2-legacy.json'))
# The v2.53/ captures of what this API serves as servers, flavors and the
# version documents (the others are os-services' and the server actions').
V2_53_SERVERS = ('show-2.19-admin.json', 'show-2.26-admin.json', 'show-2.47-admin.json',
                 'show-2.53-admin.json', 'detail-limit2-2.53-admin.json',
                 'detail-status-bogus-2.37.json', 'detail-status-bogus-2.38.json',
                 'list-tags-2.53.json', 'create-no-networks-2.37.json',
                 'flavors-detail-2.53.json', 'versions-v2.1.json')
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


# Request bodies in the order they were sent (the captures store keys sorted,
# and Nova's message quotes the body as sent).
SENT_BODIES = {'create-no-networks-2.37.json': {'server': {
    'name': 'x', 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1'}}}


def sorted_keys(value):
    """``value`` with every object's keys in sorted order (the v2.53/
    captures were recorded so: their key order is not Nova's)."""
    if isinstance(value, dict):
        return {k: sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(v) for v in value]
    return value


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


def status_and_header_problems(capture, ours):
    """How our response's status and compared headers differ from the
    capture's."""
    problems = []
    if ours.status != capture['status']:
        problems.append('status %s, expected %s' % (ours.status, capture['status']))
    expected_headers = compared_headers(capture['headers'], nova=True)
    actual_headers = compared_headers(ours.headers)
    if actual_headers != expected_headers:
        problems.append('headers %s, expected %s' % (actual_headers, expected_headers))
    return problems
