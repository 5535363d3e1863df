"""This package's openstackclient plugin, run as ``openstack`` against the
real all-in-one (README's environment: admin_token, no Keystone): host
maintenance create/list/show/set/delete, server host health show, and
server list by host status through the server-side filter."""
import datetime
import json


from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO


def iso(value):
    return value.isoformat(timespec='seconds') + 'Z'


class OscPluginTest(func.SharedAllInOneTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    @classmethod
    def seed_class(cls):
        cls.on_1 = cls.nova.create_server_on('host-1', 'on-1')
        cls.on_2 = cls.nova.create_server_on('host-2', 'on-2')

    def osc(self, token, *args, ok=True):
        done = clients.run(self.nova, 'openstack', args, token)
        if ok:
            self.assertEqual(0, done.returncode, done.stdout + done.stderr)
        else:
            self.assertNotEqual(0, done.returncode, done.stdout)
        return done

    def osc_json(self, token, *args):
        return json.loads(self.osc(token, *args, '-f', 'json').stdout)

    def test_maintenance_commands_and_host_health(self):
        soon = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        start, end = soon + datetime.timedelta(hours=2), soon + datetime.timedelta(hours=3)
        made = self.osc_json(ADMIN, 'host', 'maintenance', 'create', 'host-1',
                             '--start', iso(start), '--end', iso(end), '--impact', 'reboot',
                             '--reason', 'PSU swap on host-1')
        self.assertEqual(('host-1', 'scheduled', 'reboot', 'PSU swap on host-1'),
                         (made['host'], made['state'], made['impact'], made['reason']))
        self.addCleanup(self.osc, ADMIN, 'host', 'maintenance', 'delete', made['id'], ok=False)
        self.assertEqual(made, self.osc_json(ADMIN, 'host', 'maintenance', 'show', made['id']))
        changed = self.osc_json(ADMIN, 'host', 'maintenance', 'set', made['id'],
                                '--impact', 'migrate')
        self.assertEqual('migrate', changed['impact'])
        self.assertIn(made['id'], [w['id'] for w in self.osc_json(
            ADMIN, 'host', 'maintenance', 'list', '--host', 'host-1')])

        # the owner of the server on host-1: the window without host or reason
        [seen] = [w for w in self.osc_json(DEMO, 'host', 'maintenance', 'list')
                  if w['id'] == made['id']]
        self.assertEqual(self.on_1, seen['servers'])
        self.assertNotIn('host', seen)
        self.assertNotIn('reason', seen)
        health = self.osc_json(DEMO, 'server', 'host', 'health', 'show', 'on-1')
        self.assertEqual(('NEEDS_MAINTENANCE', 'up', 'enabled', made['id'], 'migrate'),
                         (health['status'], health['liveness'], health['admin_state'],
                          health['maintenance_id'], health['maintenance_impact']))
        self.assertNotIn('host', health)
        self.assertEqual('UP', self.osc_json(DEMO, 'server', 'host', 'health', 'show',
                                             self.on_2)['status'])
        self.assertEqual('host-1', self.osc_json(ADMIN, 'server', 'host', 'health', 'show',
                                                 self.on_1)['host'])

        refused = self.osc(DEMO, 'host', 'maintenance', 'create', 'host-2', '--start',
                           iso(start), '--end', iso(end), ok=False)
        self.assertIn("403 Policy doesn't allow os_compute_api:os-host-maintenance:create",
                      refused.stderr)
        bad = self.osc(ADMIN, 'host', 'maintenance', 'create', 'host-2', '--start',
                       iso(end), '--end', iso(start), ok=False)
        self.assertIn('400 Invalid maintenance window: end must be after start', bad.stderr)

        self.osc(ADMIN, 'host', 'maintenance', 'delete', made['id'])
        self.assertEqual('cancelled', self.osc_json(ADMIN, 'host', 'maintenance', 'show',
                                                    made['id'])['state'])
        self.assertEqual('UP', self.osc_json(DEMO, 'server', 'host', 'health', 'show',
                                             'on-1')['status'])

    def test_server_list_by_host_status(self):
        self.nova.service_action('disable', 'host-2')
        self.addCleanup(self.nova.service_action, 'enable', 'host-2')
        rows = self.osc_json(ADMIN, 'server', 'list', 'by', 'host', 'status', 'MAINTENANCE',
                             '--all-projects', '--limit', '1')
        self.assertEqual([(self.on_2, 'on-2', 'MAINTENANCE')],
                         [(r['ID'], r['Name'], r['Host Status']) for r in rows])
        rows = self.osc_json(ADMIN, 'server', 'list', 'by', 'host', 'status', 'UP',
                             'MAINTENANCE', '--all-projects', '--limit', '1')
        self.assertEqual({self.on_1, self.on_2}, {r['ID'] for r in rows})
        # members may not see host_status by default: a clear refusal
        refused = self.osc(DEMO, 'server', 'list', 'by', 'host', 'status', 'UP', ok=False)
        self.assertIn('403', refused.stderr)
        refused = self.osc(ADMIN, 'server', 'list', 'by', 'host', 'status', 'SIDEWAYS',
                           ok=False)
        self.assertIn('invalid choice', refused.stderr)
