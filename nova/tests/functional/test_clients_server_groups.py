"""Server groups and instance actions through the real clients against the
all-in-one over HTTP (README's environment): python-openstackclient's
``server group create/list/show/delete``, ``server create --hint
group=...`` and ``server event list/show``, and this package's plugin
``server group host status show``."""
import json

from nova.tests.functional import cases
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

ADMIN, DEMO = func.ADMIN, func.DEMO


class ServerGroupClientsTest(cases.SeededTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    @classmethod
    def seed_class(cls):
        pass        # the test makes its own servers, in its group

    def osc_json(self, token, version, *args):
        return json.loads(self.run_cli('openstack', token, version, *args, '-f', 'json').stdout)

    def test_groups_the_group_hint_and_server_events(self):
        group = self.osc_json(DEMO, '2.64', 'server', 'group', 'create', '--policy',
                              'anti-affinity', '--rule', 'max_server_per_host=1', 'ha-web')
        self.addCleanup(clients.run, self.nova, 'openstack',
                        ('server', 'group', 'delete', group['id']), DEMO)
        self.assertEqual(('anti-affinity', {'max_server_per_host': 1}),
                         (group['policy'], group['rules']))
        self.assertIn(group['id'], [g['ID'] for g in self.osc_json(
            DEMO, '2.64', 'server', 'group', 'list')])
        servers = []
        for name in ('web-1', 'web-2'):
            server = self.osc_json(DEMO, '2.64', 'server', 'create', '--image', 'cirros',
                                   '--flavor', 'm1.tiny', '--nic', 'none', '--hint',
                                   'group=%s' % group['id'], '--wait', name)
            self.addCleanup(clients.run, self.nova, 'openstack',
                            ('server', 'delete', server['id']), DEMO)
            self.assertEqual('ACTIVE', server['status'])
            servers.append(server['id'])
        shown = self.osc_json(DEMO, '2.64', 'server', 'group', 'show', 'ha-web')
        self.assertEqual(sorted(servers), sorted(shown['members']))
        hosts = {self.nova.show(s).json['server']['OS-EXT-SRV-ATTR:host'] for s in servers}
        self.assertEqual({'host-1', 'host-2'}, hosts)
        # the plugin: both members on UP hosts, none sharing one
        standing = self.osc_json(DEMO, None, 'server', 'group', 'host', 'status', 'show',
                                 'ha-web')
        self.assertEqual((2, 2, 0, False), (standing['members'], standing['up'],
                                            standing['unknown_or_down'],
                                            standing['shared_host']))
        # a third member has no host left: ERROR, as Nova's
        third = self.run_cli('openstack', DEMO, '2.64', 'server', 'create', '--image',
                             'cirros', '--flavor', 'm1.tiny', '--nic', 'none', '--hint',
                             'group=%s' % group['id'], '--wait', 'web-3', ok=False)
        self.assertIn('Error creating server: web-3', third.stderr)
        clients.run(self.nova, 'openstack', ('server', 'delete', 'web-3'), DEMO)

        events = self.osc_json(DEMO, '2.64', 'server', 'event', 'list', servers[0])
        self.assertEqual(['create'], [e['Action'] for e in events])
        event = self.osc_json(ADMIN, '2.64', 'server', 'event', 'show', servers[0],
                              events[0]['Request ID'])
        self.assertEqual('create', event['action'])
        self.assertIn('compute__do_build_and_run_instance', json.dumps(event['events']))

        self.run_cli('openstack', DEMO, '2.64', 'server', 'group', 'delete', 'ha-web')
        self.assertEqual([], [g for g in self.osc_json(DEMO, '2.64', 'server', 'group', 'list')
                              if g['ID'] == group['id']])
