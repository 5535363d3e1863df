"""OpenStack Nova 34's answers behind tempest's compute failures (issue
25), replayed from ../shared/reference/nova-34/v2.73/ against an
all-in-one whose flavors are the reference cloud's (1, 2 and 3 public, p1
private): the flavor lists' filters, order and paging, the version
documents, a malformed network uuid below 2.37 and a long-form
accessIPv6 on create and update.

Captures made above our maximum microversion are replayed at it, with
what those later versions change taken out of Nova's answer (``swap`` 0
where 2.73 says ``""``) and its version headers read as ours. Everything
else, descriptions, extra specs, key order and messages included, must be
Nova's."""
import copy

import sqlalchemy as sa

from nova.api.openstack import api_version_request as avr
from nova.db import models
from nova.tests.functional import cases
from nova.tests.functional import fixtures as func
from nova.tests.functional import json_diff
from nova.tests.functional import reference

SUBDIR = 'v2.73'
VERSIONS = ('versions-root.json', 'versions-v2-slash.json', 'versions-v2.1-slash.json')
FLAVOR_LISTS = (
    'flavors-list-2.54.json', 'flavors-detail-2.54.json',
    'flavors-list-2.55.json', 'flavors-detail-2.55.json',
    'flavors-list-2.61.json', 'flavors-detail-2.61.json', 'flavors-detail-2.61-demo.json',
    'flavors-detail-2.1-admin-is_public-none.json',
    'flavors-detail-is_public-none-2.75-admin.json',
    'flavors-detail-is_public-false-2.75-admin.json',
    'flavors-detail-limit1-2.75-admin.json', 'flavors-detail-marker1-2.75-admin.json',
    'flavors-detail-mindisk-2.75-admin.json', 'flavors-detail-minram-2.75-admin.json',
    'flavors-detail-sort-memory-desc-2.75-admin.json',
    'flavors-detail-minram-bad-2.75-admin.json',
    'flavors-detail-marker-unknown-2.75-admin.json',
    'flavors-detail-sort-key-bad-2.75-admin.json',
    'flavors-list-is_public-none-2.75-demo.json',
    'flavors-list-is_public-false-2.75-demo.json',
    'flavors-list-limit1-2.75-demo.json',
)
# (servers-create-bad-network-uuid-2.37.json is a 400 here too, but worded
# after the innermost schema error, where Nova words the oneOf itself)
SERVER_FAULTS = ('servers-create-bad-network-uuid-2.1.json',
                 'servers-create-bad-accessipv4-2.1.json')
# the reference cloud's private flavor (its 1, 2 and 3 are ours too)
PRIVATE_FLAVOR = {'flavorid': 'p1', 'name': 'p1.private', 'memory_mb': 1024, 'vcpus': 1,
                  'root_gb': 10, 'is_public': False,
                  'description': 'private flavor (peer seed)'}
# the reference cloud's descriptions of the flavors it shares with ours
DESCRIPTIONS = {'2': 'small flavor (peer seed)'}
# ... and their extra specs
EXTRA_SPECS = {'2': {'hw:cpu_policy': 'shared'},
               '3': {'hw:cpu_policy': 'dedicated', 'hw:mem_page_size': 'large'}}


def _as_replayed(capture):
    """The capture as our maximum microversion would answer it."""
    capture = copy.deepcopy(capture)
    headers = capture['request']['headers']
    asked = headers.get('OpenStack-API-Version', '').split(' ')[-1]
    if asked and avr.APIVersionRequest(asked) > avr.max_version():
        headers['OpenStack-API-Version'] = 'compute ' + avr.MAX_VERSION
        capture['headers'] = [(name, value.replace(asked, avr.MAX_VERSION))
                              for name, value in capture['headers']]
        for flavor in capture['body_json'].get('flavors', ()):
            if flavor.get('swap') == 0:
                flavor['swap'] = ''
    return capture


class ReferenceTempestTest(func.SharedAllInOneTestCase):

    ALL_IN_ONE = dict(hosts=1, report_interval=1, service_down_time=20)

    @classmethod
    def setUpClass(cls):
        reference.directory()       # fail before starting anything if missing
        super().setUpClass()

    @classmethod
    def seed_class(cls):
        db = cases.engine(cls.nova)
        with db.begin() as conn:
            conn.execute(sa.delete(models.flavors).where(
                models.flavors.c.flavorid.in_(('4', '5'))))
            conn.execute(sa.insert(models.flavors).values(**PRIVATE_FLAVOR))
            for flavorid, description in DESCRIPTIONS.items():
                conn.execute(sa.update(models.flavors).where(
                    models.flavors.c.flavorid == flavorid).values(description=description))
            for flavorid, specs in EXTRA_SPECS.items():
                flavor_pk = conn.scalar(sa.select(models.flavors.c.id).where(
                    models.flavors.c.flavorid == flavorid))
                conn.execute(sa.insert(models.flavor_extra_specs), [
                    {'flavor_id': flavor_pk, 'key': key, 'value': value}
                    for key, value in specs.items()])
        db.dispose()

    def _replay(self, name, path=None):
        """(capture as replayed, our response) for the capture ``name``,
        sent to ``path`` when given."""
        capture = _as_replayed(dict(reference.captures(SUBDIR))[name])
        request = capture['request']
        return capture, self.nova.request(request['method'], path or request['path'],
                                          token=None, headers=dict(request['headers']),
                                          body=request['body'])

    def _problems(self, name):
        capture, ours = self._replay(name)
        problems = reference.status_and_header_problems(capture, ours)
        expected = reference.normalize(reference.body(capture), nova=True)
        problems += json_diff.differences(expected, reference.normalize(ours.json),
                                          any_value=('adminPass',))
        return ['%s: %s' % (name, p) for p in problems]

    def test_version_documents(self):
        problems = []
        for name in VERSIONS:
            problems += self._problems(name)
        self.assertEqual([], problems)

    def test_flavor_lists(self):
        problems = []
        for name in FLAVOR_LISTS:
            problems += self._problems(name)
        self.assertEqual([], problems)

    def test_server_create_faults(self):
        problems = []
        for name in SERVER_FAULTS:
            problems += self._problems(name)
        self.assertEqual([], problems)
        servers = self.nova.request('GET', '/v2.1/servers?all_tenants=1').json['servers']
        self.assertEqual([], [s for s in servers if s['name'] in ('bad-net', 'bad-ip')])

    def test_long_form_access_ipv6(self):
        name = 'servers-create-accessipv6-2.37.json'
        self.assertEqual([], self._problems(name))
        uuid = self.nova.request('GET', '/v2.1/servers?name=^ipv6-long$',
                                 token=func.DEMO).json['servers'][0]['id']
        capture, shown = self._replay('servers-show-created-accessipv6-2.37.json',
                                      '/v2.1/servers/' + uuid)
        for key in ('accessIPv4', 'accessIPv6'):
            self.assertEqual(capture['body_json']['server'][key], shown.json['server'][key])
        self.nova.request('PUT', '/v2.1/servers/' + uuid, body={'server': {
            'accessIPv6': '2001:db8::1'}})
        capture, updated = self._replay('servers-update-accessipv6-2.75.json',
                                        '/v2.1/servers/' + uuid)
        self.assertEqual(capture['status'], updated.status)
        self.assertEqual(capture['body_json']['server']['accessIPv6'],
                         updated.json['server']['accessIPv6'])
