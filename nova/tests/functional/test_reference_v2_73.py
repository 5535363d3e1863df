"""Servers, flavors and server actions at microversions 2.54-2.73 against
OpenStack Nova 34's captures (../shared/reference/nova-34/v2.73/), on the
same cases seeded in-process (c-up on an up host, c-stale on a stale one,
...): the keys of every shown server and flavor, in Nova's order, per
version and role, the values the new versions add, and every refusal
(status and fault, word for word).

Not compared: the reference c-up belongs to a server group, which the
seeded c-up does not (its ``server_groups`` is ``[]``), and values the
reference cloud seeded differently (flavor descriptions and extra specs,
lock reasons set by earlier captures).
"""
import re

from nova.tests import fixtures as nova_fixtures
from nova.tests.functional import gabbi_fixtures
from nova.tests.functional import reference

_UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')
# (capture, where the keys are: 'server', 'servers' (each) or 'flavor'/'flavors')
KEY_ORDER = (
    [('servers-show-%s-admin.json' % v, 'server')
     for v in ('2.54', '2.55', '2.57', '2.61', '2.63', '2.66', '2.68', '2.70', '2.71',
               '2.72')]
    + [('servers-detail-%s-admin.json' % v, 'servers')
       for v in ('2.54', '2.55', '2.57', '2.61', '2.63', '2.66', '2.68', '2.71', '2.72',
                 '2.73')]
    + [('servers-show-2.71-demo.json', 'server'), ('servers-detail-2.71-admin-sg.json', 'servers'),
       ('servers-show-2.73-admin-c-up.json', 'server'),
       ('servers-show-2.72-admin-c-stale.json', 'server'),
       ('flavors-list-2.54.json', 'flavors'), ('flavors-list-2.55.json', 'flavors'),
       ('flavors-list-2.61.json', 'flavors'), ('flavors-detail-2.54.json', 'flavors'),
       ('flavors-detail-2.55.json', 'flavors'), ('flavors-detail-2.61.json', 'flavors'),
       ('flavors-detail-2.61-demo.json', 'flavors'), ('flavors-show-2-2.54.json', 'flavor'),
       ('flavors-show-2-2.55.json', 'flavor'), ('flavors-show-2-2.61.json', 'flavor')])
# refusals and empty answers: status and body word for word
EXACT = (
    'servers-lock-empty-reason-2.73.json', 'servers-lock-long-reason-2.73.json',
    'servers-lock-extra-key-2.73.json', 'servers-lock-string-2.73.json',
    'servers-list-locked-bogus-2.73.json', 'servers-list-changes-before-bad-2.66.json',
    'servers-list-changes-before-lt-since-2.66.json', 'evacuate-force-2.68.json',
    'evacuate-unknown-key-2.68.json', 'evacuate-onsharedstorage-2.68.json',
    'evacuate-force-nohost-2.67.json', 'evacuate-force-2.67.json',
    'evacuate-unknown-host-2.68.json', 'evacuate-same-host-2.68.json',
    'evacuate-member-2.68.json', 'evacuate-host-2.68.json', 'evacuate-empty-2.68.json',
    'evacuate-adminpass-2.68.json',
)


def _capture_names():
    """capture server uuid -> case name, from the captures' own lists."""
    names = {}
    for name in ('servers-list-locked-false-2.73.json', 'servers-detail-locked-true-2.73.json'):
        for server in reference.load('v2.73/' + name)['body_json']['servers']:
            names[server['id']] = server['name']
    return names


class _Seeded(nova_fixtures.APITestCase):
    """The gabbi fixtures' hosts and servers (the captures' case names)."""

    def setUp(self):
        super().setUp()
        for host, values in gabbi_fixtures.SERVICES:
            nova_fixtures.add_service(host, **values)
        self.ids = {}
        for name, host, project, values in gabbi_fixtures.SERVERS:
            self.ids[name] = nova_fixtures.add_server(
                name, host=host, project_id=project, **dict({'user_id': project}, **values))
        self.names = _capture_names()

    def replay(self, name):
        capture = reference.load('v2.73/' + name)
        request = capture['request']
        path = _UUID.sub(lambda m: self.ids.get(self.names.get(m.group(0)), m.group(0)),
                         request['path'])
        return capture, self.api.request(request['method'], path, token=None,
                                         headers=dict(request['headers']),
                                         body=request.get('body'))



class ReferenceV273Test(_Seeded):

    @staticmethod
    def _keys(body, where):
        items = body[where] if isinstance(body[where], list) else [body[where]]
        return [list(item) for item in items]

    def test_keys_in_nova_order(self):
        problems = []
        for name, where in KEY_ORDER:
            capture, ours = self.replay(name)
            if ours.status_int != capture['status']:
                problems.append('%s: status %s' % (name, ours.status_int))
                continue
            expected, actual = self._keys(capture['body_json'], where), self._keys(
                ours.json, where)
            # the same servers or flavors need not be first: compare the
            # key lists of the first of each shape
            for keys in expected:
                if keys not in actual:
                    problems.append('%s: no item with keys %s; ours: %s' % (
                        name, keys, actual[:1]))
                    break
        self.assertEqual([], problems)

    def test_refusals_word_for_word(self):
        problems = []
        for name in EXACT:
            capture, ours = self.replay(name)
            expected = capture['body_json']
            actual = ours.json if ours.body else None
            if (ours.status_int, actual) != (capture['status'], expected):
                problems.append('%s: %s %s, expected %s %s' % (
                    name, ours.status_int, actual, capture['status'], expected))
        self.assertEqual([], problems)

    def test_new_values(self):
        c_up = self.ids['c-up']
        server = self.api.request('GET', '/v2.1/servers/' + c_up, version='2.73').json['server']
        self.assertEqual((None, [], None), (server['trusted_image_certificates'],
                                            server['server_groups'], server['locked_reason']))
        flavor = self.api.request('GET', '/v2.1/flavors/1', version='2.61').json['flavor']
        self.assertEqual((None, {}), (flavor['description'], flavor['extra_specs']))


class FlavorDescriptionTest(_Seeded):
    """2.55's flavor create with a description and PUT /flavors/{flavor_id},
    in the captures' order (f-new is created, then updated), status and
    body word for word; 2.61's update answer carries the extra specs."""

    SEQUENCE = ('flavors-create-description-2.54.json', 'flavors-create-2.55.json',
                'flavors-update-2.54.json', 'flavors-update-2.55.json',
                'flavors-update-member-2.55.json', 'flavors-update-name-2.55.json',
                'flavors-update-null-2.61.json', 'flavors-update-unknown-2.55.json')

    def test_create_and_update(self):
        problems = []
        for name in self.SEQUENCE:
            capture, ours = self.replay(name)
            expected = capture['body_json']
            actual = ours.json if ours.body else None
            if (ours.status_int, actual) != (capture['status'], expected):
                problems.append('%s: %s %s, expected %s %s' % (
                    name, ours.status_int, actual, capture['status'], expected))
        self.assertEqual([], problems)
        shown = self.api.request('GET', '/v2.1/flavors/f-new', version='2.55').json['flavor']
        self.assertIsNone(shown['description'])

    def test_extra_specs_only_where_policy_lists_them(self):
        """As Nova: 2.61's extra_specs in show, detail and update only when
        os-flavor-extra-specs:index allows; the plain list never has them."""
        resp = self.api.request('POST', '/v2.1/flavors/1/os-extra_specs',
                                body={'extra_specs': {'hw:cpu_policy': 'shared'}})
        self.assertEqual(200, resp.status_int, resp.body)

        def seen(token):
            show = self.api.request('GET', '/v2.1/flavors/1', token=token,
                                    version='2.61').json['flavor']
            detail = self.api.request('GET', '/v2.1/flavors/detail?limit=1', token=token,
                                      version='2.61').json['flavors'][0]
            listed = self.api.request('GET', '/v2.1/flavors?limit=1', token=token,
                                      version='2.61').json['flavors'][0]
            self.assertNotIn('extra_specs', listed)
            return show.get('extra_specs'), detail.get('extra_specs')

        specs = {'hw:cpu_policy': 'shared'}
        self.assertEqual((specs, specs), seen('demo:demo'))
        self.policy.set_rules({'os_compute_api:os-flavor-extra-specs:index': 'rule:admin_api'})
        self.assertEqual((None, None), seen('demo:demo'))
        self.assertEqual((specs, specs), seen('admin:admin'))
        updated = self.api.request('PUT', '/v2.1/flavors/1', version='2.61',
                                   body={'flavor': {'description': 'd'}}).json['flavor']
        self.assertEqual(('d', specs), (updated['description'], updated['extra_specs']))
        at_255 = self.api.request('GET', '/v2.1/flavors/1', version='2.55').json['flavor']
        self.assertNotIn('extra_specs', at_255)


class LockReasonTest(_Seeded):
    """2.73's lock reason, through the captures' sequence: kept while
    locked, shown to the owner, dropped below 2.73, cleared by unlock."""

    def lock(self, name, body, version='2.73', token='admin:admin'):
        return self.api.request('POST', '/v2.1/servers/%s/action' % self.ids[name],
                                token=token, version=version, body=body)

    def show(self, name, version='2.73', token='admin:admin'):
        return self.api.request('GET', '/v2.1/servers/' + self.ids[name], token=token,
                                version=version).json['server']

    def test_reason_lifecycle(self):
        self.assertEqual(202, self.lock('c-stale', {'lock': {
            'locked_reason': 'peer: maintenance by ops'}}).status_int)
        self.assertEqual(202, self.lock('c-disabled', {'lock': None}).status_int)
        # at 2.72 the body is anything: the reason is dropped
        self.assertEqual(202, self.lock('c-ghost', {'lock': {
            'locked_reason': 'dropped'}}, version='2.72').status_int)
        self.assertEqual((True, 'peer: maintenance by ops'),
                         (self.show('c-stale')['locked'], self.show('c-stale')['locked_reason']))
        self.assertEqual('peer: maintenance by ops',
                         self.show('c-stale', token='demo:demo')['locked_reason'])
        self.assertIsNone(self.show('c-disabled')['locked_reason'])
        self.assertIsNone(self.show('c-ghost')['locked_reason'])
        self.assertNotIn('locked_reason', self.show('c-stale', version='2.72'))
        # the locked filter and sort key, from 2.73
        locked = self.api.request('GET', '/v2.1/servers/detail?all_tenants=1&locked=true',
                                  version='2.73').json['servers']
        self.assertEqual({'c-stale', 'c-disabled', 'c-ghost'}, {s['name'] for s in locked})
        unlocked = self.api.request('GET', '/v2.1/servers?all_tenants=1&locked=false',
                                    version='2.73').json['servers']
        self.assertEqual(len(gabbi_fixtures.SERVERS) - 3, len(unlocked))
        ignored = self.api.request('GET', '/v2.1/servers?all_tenants=1&locked=true',
                                   version='2.72').json['servers']
        self.assertEqual(len(gabbi_fixtures.SERVERS), len(ignored))
        first = self.api.request('GET', '/v2.1/servers?all_tenants=1&sort_key=locked&'
                                 'sort_dir=desc&limit=3', version='2.73').json['servers']
        self.assertEqual({'c-stale', 'c-disabled', 'c-ghost'}, {s['name'] for s in first})
        self.assertEqual(200, self.api.request(
            'GET', '/v2.1/servers?all_tenants=1&sort_key=locked', version='2.72').status_int)
        # a member cannot lift an admin's lock; unlock clears the reason
        resp = self.lock('c-disabled', {'unlock': None}, token='demo:demo')
        self.assertEqual(403, resp.status_int)
        self.assertEqual(202, self.lock('c-stale', {'unlock': None}).status_int)
        self.assertEqual((False, None), (self.show('c-stale')['locked'],
                                         self.show('c-stale')['locked_reason']))
        # a member locks its own server with a reason and sees it
        self.assertEqual(202, self.lock('c-up', {'lock': {'locked_reason': 'mine'}},
                                        token='demo:demo').status_int)
        self.assertEqual('mine', self.show('c-up', token='demo:demo')['locked_reason'])

    def test_changes_before(self):
        all_servers = self.api.request('GET', '/v2.1/servers?all_tenants=1',
                                       version='2.66').json['servers']
        self.assertEqual([], self.api.request(
            'GET', '/v2.1/servers?all_tenants=1&changes-before=2000-01-01T00:00:00Z',
            version='2.66').json['servers'])
        self.assertEqual(len(all_servers), len(self.api.request(
            'GET', '/v2.1/servers?all_tenants=1&changes-before=2999-01-01T00:00:00Z',
            version='2.66').json['servers']))
        # below 2.66 it is ignored
        self.assertEqual(len(all_servers), len(self.api.request(
            'GET', '/v2.1/servers?all_tenants=1&changes-before=2000-01-01T00:00:00Z',
            version='2.65').json['servers']))


class CreateTest(_Seeded):
    """What 2.57, 2.63 and 2.67 change in server create."""

    def create(self, version, **extra):
        server = dict({'name': 'new', 'flavorRef': '1', 'imageRef': nova_fixtures.IMAGE,
                       'networks': 'none'}, **extra)
        return self.api.request('POST', '/v2.1/servers', token='demo:demo', version=version,
                                body={'server': server})

    def test_personality_is_refused_from_2_57(self):
        personality = [{'path': '/etc/motd', 'contents': 'aGk='}]
        self.assertEqual(202, self.create('2.56', personality=personality).status_int)
        resp = self.create('2.57', personality=personality)
        self.assertEqual(400, resp.status_int)
        self.assertIn("Additional properties are not allowed ('personality' was unexpected)",
                      resp.json['badRequest']['message'])

    def test_trusted_image_certificates_are_kept_and_shown(self):
        certs = ['0b5d2c72-12cc-4ba6-a8d7-3ff5cc1d8cb8', 'cert-2']
        self.assertEqual(400, self.create('2.62', trusted_image_certificates=certs).status_int)
        for bad in ([], ['x', 'x'], [''], 'x'):
            self.assertEqual(400, self.create('2.63', trusted_image_certificates=bad).status_int,
                             bad)
        uuid = self.create('2.63', trusted_image_certificates=certs).json['server']['id']
        shown = self.api.request('GET', '/v2.1/servers/' + uuid, token='demo:demo',
                                 version='2.63').json['server']
        self.assertEqual(certs, shown['trusted_image_certificates'])
        self.assertNotIn('trusted_image_certificates', self.api.request(
            'GET', '/v2.1/servers/' + uuid, token='demo:demo', version='2.62').json['server'])
        uuid = self.create('2.73', trusted_image_certificates=None).json['server']['id']
        self.assertIsNone(self.api.request('GET', '/v2.1/servers/' + uuid, token='demo:demo',
                                           version='2.73').json['server'][
                                               'trusted_image_certificates'])

    def test_volume_type_from_2_67(self):
        mapping = [{'boot_index': 0, 'uuid': nova_fixtures.IMAGE, 'source_type': 'image',
                    'destination_type': 'volume', 'volume_size': 1, 'volume_type': 'fast'}]
        resp = self.create('2.66', block_device_mapping_v2=mapping)
        self.assertEqual(400, resp.status_int)
        self.assertIn("Additional properties are not allowed ('volume_type' was unexpected)",
                      resp.json['badRequest']['message'])
        self.assertEqual(202, self.create('2.67', block_device_mapping_v2=mapping).status_int)
