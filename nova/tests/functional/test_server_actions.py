"""Server actions through the real all-in-one: stop, start, reboot, lock,
unlock and reset-state with Nova's checks, policies and faults, carried
out by the real nova-compute processes (power_state, vm_state, task_state
that clears)."""
import json
import os

from nova.api.openstack import api_version_request as avr
from nova.tests.functional import fixtures as func
from nova.tests.functional import reference
from nova.tests.functional import server_actions as sa

ADMIN, DEMO = func.ADMIN, func.DEMO
SHUTDOWN, RUNNING = 4, 1


class v253:
    """The captures of shared/reference/nova-34/v2.53/."""

    @staticmethod
    def load(name):
        with open(os.path.join(reference.directory(), 'v2.53', name)) as f:
            return json.load(f)


class ServerActionsTest(func.SharedAllInOneTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def _server(self, token=DEMO):
        uuid = self.nova.create_server(name=self.id().rsplit('.', 1)[-1], token=token)
        host = self.nova.show(uuid).json['server']['OS-EXT-SRV-ATTR:host']
        return uuid, host

    def test_stop_then_start(self):
        uuid, host = self._server()
        self.assertEqual(202, sa.act(self.nova, uuid, {'os-stop': None}, DEMO).status)
        sa.wait_for_state(self.nova, uuid, ('SHUTOFF', 'stopped', None, SHUTDOWN, host))
        self.assertEqual(
            (409, 'conflictingRequest',
             "Cannot 'stop' instance %s while it is in vm_state stopped" % uuid),
            sa.fault(sa.act(self.nova, uuid, {'os-stop': None}, DEMO)))
        self.assertEqual(202, sa.act(self.nova, uuid, {'os-start': None}, DEMO).status)
        sa.wait_for_state(self.nova, uuid, ('ACTIVE', 'active', None, RUNNING, host))
        self.assertEqual(
            (409, 'conflictingRequest',
             "Cannot 'start' instance %s while it is in vm_state active" % uuid),
            sa.fault(sa.act(self.nova, uuid, {'os-start': None}, DEMO)))

    def test_a_task_in_progress_is_409(self):
        uuid, host = self._server()
        self.nova.freeze_outside_writes(host)      # the compute cannot end the task meanwhile
        try:
            self.assertEqual(202, sa.act(self.nova, uuid, {'os-stop': None}, DEMO).status)
            self.assertEqual(('ACTIVE', 'active', 'powering-off', RUNNING, host),
                             sa.state(self.nova, uuid))
            self.assertEqual(
                (409, 'conflictingRequest',
                 "Cannot 'reboot' instance %s while it is in task_state powering-off" % uuid),
                sa.fault(sa.act(self.nova, uuid, {'reboot': {'type': 'SOFT'}}, DEMO)))
        finally:
            self.nova.thaw(host)
        sa.wait_for_state(self.nova, uuid, ('SHUTOFF', 'stopped', None, SHUTDOWN, host))

    def test_reboot_soft_and_hard(self):
        uuid, host = self._server()
        self.assertEqual(202, sa.act(self.nova, uuid, {'reboot': {'type': 'SOFT'}}, DEMO).status)
        sa.wait_for_state(self.nova, uuid, ('ACTIVE', 'active', None, RUNNING, host))
        sa.act(self.nova, uuid, {'os-stop': None}, DEMO)
        sa.wait_for_state(self.nova, uuid, ('SHUTOFF', 'stopped', None, SHUTDOWN, host))
        self.assertEqual(
            (409, 'conflictingRequest',
             "Cannot 'reboot' instance %s while it is in vm_state stopped" % uuid),
            sa.fault(sa.act(self.nova, uuid, {'reboot': {'type': 'soft'}}, DEMO)))
        # a hard reboot starts a stopped server, as Nova's
        self.assertEqual(202, sa.act(self.nova, uuid, {'reboot': {'type': 'Hard'}}, DEMO).status)
        sa.wait_for_state(self.nova, uuid, ('ACTIVE', 'active', None, RUNNING, host))
        resp = sa.act(self.nova, uuid, {'reboot': {'type': 'warm'}}, DEMO)
        self.assertEqual(400, resp.status)
        self.assertIn("'warm' is not one of", resp.json['badRequest']['message'])

    def test_server_without_a_host(self):
        uuid = self.nova.create_server_without_a_host()
        self.assertEqual((409, 'conflictingRequest', 'Instance %s is not ready' % uuid),
                         sa.fault(sa.act(self.nova, uuid, {'os-stop': None}, DEMO)))
        self.assertEqual(
            (409, 'conflictingRequest',
             "Cannot 'reboot' instance %s while it is in launched_at None" % uuid),
            sa.fault(sa.act(self.nova, uuid, {'reboot': {'type': 'HARD'}}, DEMO)))

    def test_lock_by_an_admin(self):
        uuid, host = self._server()
        self.assertEqual(202, sa.act(self.nova, uuid, {'lock': None}, ADMIN).status)
        server = self.nova.show(uuid, token=DEMO, version='2.9').json['server']
        self.assertTrue(server['locked'])
        self.assertNotIn('locked', self.nova.show(uuid, token=DEMO, version='2.8')
                         .json['server'])
        for body in ({'os-stop': None}, {'reboot': {'type': 'HARD'}}):
            self.assertEqual((409, 'conflictingRequest', 'Instance %s is locked' % uuid),
                             sa.fault(sa.act(self.nova, uuid, body, DEMO)))
        self.assertEqual(409, self.nova.request('DELETE', '/v2.1/servers/' + uuid,
                                                token=DEMO).status)
        # the owner locking it again leaves the admin's lock; only an admin
        # (unlock_override) lifts it
        self.assertEqual(202, sa.act(self.nova, uuid, {'lock': None}, DEMO).status)
        self.assertEqual(
            (403, 'forbidden', "Policy doesn't allow "
             "os_compute_api:os-lock-server:unlock:unlock_override to be performed."),
            sa.fault(sa.act(self.nova, uuid, {'unlock': None}, DEMO)))
        # an admin acts on a locked server
        self.assertEqual(202, sa.act(self.nova, uuid, {'os-stop': None}, ADMIN).status)
        sa.wait_for_state(self.nova, uuid, ('SHUTOFF', 'stopped', None, SHUTDOWN, host))
        self.assertEqual(202, sa.act(self.nova, uuid, {'unlock': None}, ADMIN).status)
        self.assertFalse(self.nova.show(uuid, version='2.9').json['server']['locked'])
        self.assertEqual(202, sa.act(self.nova, uuid, {'os-start': None}, DEMO).status)

    def test_lock_by_its_owner(self):
        uuid, _ = self._server()
        self.assertEqual(202, sa.act(self.nova, uuid, {'lock': None}, DEMO).status)
        self.assertEqual((409, 'conflictingRequest', 'Instance %s is locked' % uuid),
                         sa.fault(sa.act(self.nova, uuid, {'os-stop': None}, DEMO)))
        resp = self.nova.request('DELETE', '/v2.1/servers/' + uuid, token=DEMO)
        self.assertEqual(409, resp.status)
        self.assertEqual(202, sa.act(self.nova, uuid, {'unlock': None}, DEMO).status)
        self.assertFalse(self.nova.show(uuid, version='2.9').json['server']['locked'])

    def test_reset_state(self):
        uuid, host = self._server()
        self.assertEqual(
            (403, 'forbidden', "Policy doesn't allow "
             "os_compute_api:os-admin-actions:reset_state to be performed."),
            sa.fault(sa.act(self.nova, uuid, {'os-resetState': {'state': 'error'}}, DEMO)))
        self.assertEqual(202, sa.act(self.nova, uuid,
                                     {'os-resetState': {'state': 'error'}}).status)
        self.assertEqual(('ERROR', 'error', None, RUNNING, host), sa.state(self.nova, uuid))
        self.assertEqual(202, sa.act(self.nova, uuid,
                                     {'os-resetState': {'state': 'active'}}).status)
        self.assertEqual(('ACTIVE', 'active', None, RUNNING, host), sa.state(self.nova, uuid))
        resp = sa.act(self.nova, uuid, {'os-resetState': {'state': 'stopped'}})
        self.assertEqual(400, resp.status)

    def test_reset_state_withdraws_a_task_the_compute_has_not_done(self):
        uuid, host = self._server()
        self.nova.freeze_outside_writes(host)
        try:
            sa.act(self.nova, uuid, {'os-stop': None}, DEMO)
            self.assertEqual(202, sa.act(self.nova, uuid,
                                         {'os-resetState': {'state': 'active'}}).status)
        finally:
            self.nova.thaw(host)
        # the next task is done after the compute's first poll since the
        # thaw: the withdrawn stop never reached the guest
        self.assertEqual(202, sa.act(self.nova, uuid, {'reboot': {'type': 'HARD'}}, DEMO).status)
        sa.wait_for_state(self.nova, uuid, ('ACTIVE', 'active', None, RUNNING, host))
        self.assertEqual(RUNNING, sa.guests(self.nova, host)[uuid])

    def test_unknown_and_malformed_actions(self):
        uuid, _ = self._server()
        cases = [
            ({'os-hibernate': None}, 400, 'There is no such action: os-hibernate'),
            ({'os-stop': None, 'os-start': None}, 400, 'Malformed request body'),
            ({'os-stop': None, 'x': 1}, 400, 'Malformed request body'),
            ({}, 400, 'Malformed request body'),
        ]
        for body, code, message in cases:
            resp = sa.act(self.nova, uuid, body, DEMO)
            self.assertEqual((code, message), (resp.status, list(resp.json.values())[0]
                                               ['message']), body)
        resp = self.nova.request('POST', '/v2.1/servers/%s/action' % uuid, token=DEMO,
                                 headers={'Content-Type': 'application/json'})
        self.assertEqual((400, 'Malformed request body'),
                         (resp.status, resp.json['badRequest']['message']))
        resp = sa.act(self.nova, '00000000-0000-0000-0000-000000000042', {'os-stop': None},
                      DEMO)
        self.assertEqual(404, resp.status)
        # another project's server does not exist for a member
        theirs = self.nova.create_server(name='admins', token=ADMIN)
        self.assertEqual(404, sa.act(self.nova, theirs, {'lock': None}, DEMO).status)
        self.assertEqual(405, self.nova.request('GET', '/v2.1/servers/%s/action' % uuid,
                                                token=DEMO).status)

    def test_empty_answers_are_typed_json(self):
        uuid, _ = self._server()
        resp = sa.act(self.nova, uuid, {'lock': None}, DEMO, version='2.16')
        self.assertEqual((202, b'', 'application/json', '0'),
                         (resp.status, resp.raw, resp.header('Content-Type'),
                          resp.header('Content-Length')))
        self.assertEqual('compute 2.16', resp.header('OpenStack-API-Version'))


class ActionCapturesTest(func.SharedAllInOneTestCase):
    """The v2.53 captures of Nova 34's actions (lock, unlock, reset-state
    and the shows after them, evacuate of an up host, a member's evacuate)
    replayed in their order on a server of a disabled, up host, as the
    reference's c-up on h-up. Each is sent at its capture's microversion,
    or at our maximum while that is lower: status, fault, body and the
    headers clients read must be the capture's, host names aside."""
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)
    SEQUENCE = ('lock-2.53.json', 'show-locked-2.53.json', 'unlock-2.53.json',
                'reset-state-2.53.json', 'show-after-reset-2.53.json',
                'reset-state-active-2.53.json', 'evacuate-up-host-2.53.json',
                'member-evacuate-2.53.json')
    # what a show is compared on below 2.53 (the rest of a 2.53 show is
    # the servers' microversions' business)
    SHOW_KEYS = ('status', 'locked', 'OS-EXT-STS:vm_state', 'OS-EXT-STS:task_state',
                 'OS-EXT-STS:power_state', 'host_status')

    @classmethod
    def seed_class(cls):
        cls.uuid = cls.nova.create_server_on('host-1', name='c-up')
        cls.nova.service_action('disable', 'host-1')

    def test_captures_in_order(self):
        problems = []
        for name in self.SEQUENCE:
            capture = v253.load(name)
            problems += ['%s: %s' % (name, p) for p in self._problems(capture)]
        self.assertEqual([], problems)

    def _problems(self, capture):
        request = capture['request']
        version = min(avr.APIVersionRequest(request['headers']['OpenStack-API-Version']
                                            .split()[-1]), avr.max_version())
        headers = dict(request['headers'], **{'OpenStack-API-Version': 'compute %s' % version})
        path = '/v2.1/servers/%s' % self.uuid + ('/action' if request['path'].endswith(
            '/action') else '')
        resp = self.nova.request(request['method'], path, token=None, body=request.get('body'),
                                 headers=headers)
        problems = []
        if resp.status != capture['status']:
            problems.append('status %s, expected %s' % (resp.status, capture['status']))
        expected = capture['body_json']
        actual = resp.json
        if expected and 'server' in expected:
            expected = {k: expected['server'][k] for k in self.SHOW_KEYS}
            actual = {k: actual['server'].get(k) for k in self.SHOW_KEYS}
        expected = json.loads(json.dumps(expected).replace('h-up', 'host-1'))
        if expected != actual:
            problems.append('body %s, expected %s' % (actual, expected))
        ours = reference.compared_headers(resp.headers)
        theirs = [(k, v.replace('2.53', str(version)))
                  for k, v in reference.compared_headers(capture['headers'])]
        if ours != theirs:
            problems.append('headers %s, expected %s' % (ours, theirs))
        return problems
