"""Server groups in-process: the real WSGI app and ComputeManager.poll_once
on one SQLite file. The API at each microversion Nova changes it, the
faults of bad input, the quotas, the group hint at create, and the
policies held by the scheduler at create and at evacuate, and by the
destination's late check when two evacuations race."""
import uuid as uuidlib

import testtools

from nova.api.openstack import api_version_request as avr
from nova.compute import manager
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import engine
from nova.db import evacuations
from nova.db.dbtime import db_now
from nova.tests import fixtures as nova_fixtures

ADMIN, DEMO, OTHER = 'admin:admin', 'demo:demo', 'alt:alt'
GROUPS = '/v2.1/os-server-groups'
AT_2_29 = testtools.skipUnless(
    avr.max_version().at_least(avr.EVACUATE_FORCE), 'force is served from 2.29')


class _Base(nova_fixtures.APITestCase):

    def group(self, policy='anti-affinity', rules=None, token=DEMO, version='2.64',
              name='g'):
        body = {'name': name}
        if avr.APIVersionRequest(version).at_least('2.64'):
            body['policy'] = policy
            if rules is not None:
                body['rules'] = rules
        else:
            body['policies'] = [policy]
        return self.api.request('POST', GROUPS, token=token, version=version,
                                body={'server_group': body})

    def group_id(self, policy='anti-affinity', rules=None):
        resp = self.group(policy, rules)
        self.assertEqual(200, resp.status_int, resp.body)
        return resp.json['server_group']['id']

    def create(self, group, token=DEMO, count=1, key='os:scheduler_hints'):
        body = {'server': {'name': 'vm', 'imageRef': nova_fixtures.IMAGE, 'flavorRef': '1',
                           'networks': 'none', 'min_count': count, 'max_count': count}}
        if group is not None:
            body[key] = {'group': group}
        return self.api.request('POST', '/v2.1/servers', token=token, version='2.37',
                                body=body)

    def server_id(self, group, token=DEMO):
        resp = self.create(group, token)
        self.assertEqual(202, resp.status_int, resp.body)
        return resp.json['server']['id']

    def row(self, uuid):
        with engine.reader() as conn:
            return instance_db.instance_get(conn, uuid)

    def show_group(self, group, version='2.64', token=DEMO):
        return self.api.request('GET', '%s/%s' % (GROUPS, group), token=token,
                                version=version)


class ServerGroupsAPITest(_Base):

    def test_each_microversion_answers_nova_s_keys(self):
        for version, policy, keys in (
                ('2.1', 'affinity', ['id', 'name', 'policies', 'metadata', 'members']),
                ('2.13', 'anti-affinity', ['id', 'name', 'policies', 'metadata', 'members',
                                           'project_id', 'user_id']),
                ('2.15', 'soft-affinity', ['id', 'name', 'policies', 'metadata', 'members',
                                           'project_id', 'user_id']),
                ('2.64', 'soft-anti-affinity', ['id', 'name', 'policy', 'rules', 'members',
                                                'project_id', 'user_id'])):
            resp = self.group(policy, version=version)
            self.assertEqual(200, resp.status_int, (version, resp.body))
            created = resp.json['server_group']
            self.assertEqual(keys, list(created), version)
            shown = self.show_group(created['id'], version).json['server_group']
            self.assertEqual(created, shown, version)
            listed = self.api.request('GET', GROUPS, token=DEMO, version=version)
            self.assertIn(created, listed.json['server_groups'], version)
            if 'policies' in created:
                self.assertEqual(([policy], {}), (created['policies'], created['metadata']))
            else:
                self.assertEqual((policy, {}), (created['policy'], created['rules']))

    def test_rules_at_2_64(self):
        resp = self.group(rules={'max_server_per_host': '3'})
        self.assertEqual({'max_server_per_host': 3}, resp.json['server_group']['rules'])

    def test_bad_input_is_400_and_creates_nothing(self):
        for version, policy, rules in (
                ('2.1', 'soft-affinity', None),        # soft policies from 2.15
                ('2.15', 'best-effort', None),         # unknown policy
                ('2.64', 'best-effort', None),
                ('2.64', 'affinity', {'max_server_per_host': 2}),   # the wrong policy
                ('2.64', 'soft-anti-affinity', {'max_server_per_host': 2}),
                ('2.64', 'anti-affinity', {'max_server_per_host': 0}),
                ('2.64', 'anti-affinity', {'max_server_per_host': 'x'}),
                ('2.64', 'anti-affinity', {'other': 1})):
            resp = self.group(policy, rules, version=version)
            self.assertEqual(400, resp.status_int, (version, policy, rules))
            self.assertIn('badRequest', resp.json)
        # max_server_per_host below 2.64
        resp = self.api.request('POST', GROUPS, token=DEMO, version='2.63', body={
            'server_group': {'name': 'g', 'policies': ['anti-affinity'],
                             'rules': {'max_server_per_host': 2}}})
        self.assertEqual(400, resp.status_int)
        resp = self.group('affinity', {'max_server_per_host': 2})
        self.assertEqual('Only anti-affinity policy supports rules.',
                         resp.json['badRequest']['message'])
        for body in ({'name': 'g', 'policies': ['affinity', 'anti-affinity']},
                     {'name': '', 'policies': ['affinity']},
                     {'policies': ['affinity']}):
            resp = self.api.request('POST', GROUPS, token=DEMO, version='2.15',
                                    body={'server_group': body})
            self.assertEqual(400, resp.status_int, body)
        self.assertEqual([], self.api.request('GET', GROUPS, token=ADMIN,
                                              version='2.64').json['server_groups'])

    def test_the_group_quota_is_nova_s_ten_and_a_403(self):
        for _ in range(10):
            self.group_id()
        resp = self.group()
        self.assertEqual(403, resp.status_int)
        self.assertEqual('Quota exceeded, too many server groups.',
                         resp.json['forbidden']['message'])
        # another project has its own
        self.assertEqual(200, self.group(token=OTHER).status_int)

    def test_a_member_sees_their_project_s_groups_an_admin_all_projects(self):
        mine, theirs = self.group_id(), self.group(token=OTHER).json['server_group']['id']
        ids = lambda resp: [g['id'] for g in resp.json['server_groups']]  # noqa: E731
        self.assertEqual([mine], ids(self.api.request('GET', GROUPS, token=DEMO)))
        # as Nova: a member asking for all projects gets their own
        self.assertEqual([mine], ids(self.api.request('GET', GROUPS + '?all_projects=1',
                                                      token=DEMO)))
        self.assertEqual([], ids(self.api.request('GET', GROUPS, token=ADMIN)))
        self.assertEqual([mine, theirs], ids(self.api.request(
            'GET', GROUPS + '?all_projects=True', token=ADMIN)))
        self.assertEqual([theirs], ids(self.api.request(
            'GET', GROUPS + '?all_projects=1&offset=1&limit=1', token=ADMIN)))
        self.assertEqual(400, self.api.request('GET', GROUPS + '?limit=-1',
                                               token=DEMO).status_int)
        # an offset past any integer the database binds: nothing, never a 500
        self.assertEqual([], ids(self.api.request(
            'GET', GROUPS + '?offset=13777471223460841426537629102374912', token=DEMO)))
        self.assertEqual(403, self.show_group(theirs).status_int)
        self.assertEqual(200, self.show_group(theirs, token=ADMIN).status_int)
        self.assertEqual(403, self.api.request('DELETE', '%s/%s' % (GROUPS, theirs),
                                               token=DEMO).status_int)

    def test_delete_and_unknown_groups(self):
        group = self.group_id()
        member = self.server_id(group)
        resp = self.api.request('DELETE', '%s/%s' % (GROUPS, group), token=DEMO)
        self.assertEqual(204, resp.status_int)
        unknown = self.show_group(group)
        self.assertEqual(404, unknown.status_int)
        self.assertEqual('Instance group %s could not be found.' % group,
                         unknown.json['itemNotFound']['message'])
        self.assertEqual(404, self.api.request('DELETE', '%s/%s' % (GROUPS, group),
                                               token=DEMO).status_int)
        # its server stays, in no group
        self.assertIsNotNone(self.row(member))
        shown = self.api.request('GET', '/v2.1/servers/' + member, token=DEMO, version='2.71')
        self.assertEqual([], shown.json['server']['server_groups'])


class GroupHintTest(_Base):

    def setUp(self):
        super().setUp()
        for host in ('h1', 'h2', 'h3'):
            nova_fixtures.add_service(host)

    def test_members_and_server_groups_at_2_71(self):
        group = self.group_id()
        first = self.server_id(group)
        resp = self.create(group, key='OS-SCH-HNT:scheduler_hints')
        second = resp.json['server']['id']
        self.assertEqual([first, second], self.show_group(group).json['server_group']['members'])
        path = '/v2.1/servers/' + first
        self.assertEqual([group], self.api.request(
            'GET', path, token=DEMO, version='2.71').json['server']['server_groups'])
        self.assertNotIn('server_groups', self.api.request(
            'GET', path, token=DEMO, version='2.70').json['server'])
        updated = self.api.request('PUT', path, token=DEMO, version='2.71',
                                   body={'server': {'name': 'renamed'}})
        self.assertEqual([group], updated.json['server']['server_groups'])
        detail = self.api.request('GET', '/v2.1/servers/detail', token=DEMO, version='2.73')
        self.assertFalse(any('server_groups' in s for s in detail.json['servers']))
        # deleting a server takes it out of its group (once its host did)
        self.assertEqual(204, self.api.request('DELETE', path, token=DEMO).status_int)
        manager.ComputeManager(self.row(first)['host']).poll_once()
        self.assertEqual([second], self.show_group(group).json['server_group']['members'])

    def test_a_hint_naming_an_unknown_group_is_400(self):
        unknown = str(uuidlib.uuid4())
        resp = self.create(unknown)
        self.assertEqual(400, resp.status_int)
        self.assertEqual('Instance group %s could not be found.' % unknown,
                         resp.json['badRequest']['message'])
        self.assertEqual(400, self.create('not-a-uuid').status_int)
        self.assertEqual([], self.api.request('GET', '/v2.1/servers', token=DEMO)
                         .json['servers'])

    def test_the_member_quota_is_nova_s_ten_and_a_403(self):
        group = self.group_id('soft-anti-affinity')
        self.assertEqual(202, self.create(group, count=10).status_int)
        resp = self.create(group)
        self.assertEqual(403, resp.status_int)
        self.assertEqual('Quota exceeded, too many servers in group',
                         resp.json['forbidden']['message'])
        self.assertEqual(10, len(self.show_group(group).json['server_group']['members']))

    def _hosts(self, group):
        members = self.show_group(group).json['server_group']['members']
        return [self.row(uuid)['host'] for uuid in members]

    def test_anti_affinity_spreads_and_fails_when_hosts_run_out(self):
        group = self.group_id()
        for _ in range(3):
            self.server_id(group)
        self.assertEqual(['h1', 'h2', 'h3'], sorted(self._hosts(group)))
        fourth = self.server_id(group)
        self.assertEqual((None, 'error'), (self.row(fourth)['host'],
                                           self.row(fourth)['vm_state']))

    def test_max_server_per_host_allows_that_many(self):
        group = self.group_id(rules={'max_server_per_host': 2})
        self.assertEqual(202, self.create(group, count=6).status_int)
        hosts = self._hosts(group)
        self.assertEqual({'h1': 2, 'h2': 2, 'h3': 2}, {h: hosts.count(h) for h in hosts})
        self.assertIsNone(self.row(self.server_id(group))['host'])

    def test_affinity_keeps_members_together_even_on_the_busiest_host(self):
        group = self.group_id('affinity')
        first = self.server_id(group)
        host = self.row(first)['host']
        for i in range(3):
            nova_fixtures.add_server('load%d' % i, host=host)
        self.assertEqual(202, self.create(group, count=2).status_int)
        self.assertEqual([host] * 3, self._hosts(group))

    def test_soft_policies_prefer_and_never_fail(self):
        spread = self.group_id('soft-anti-affinity')
        self.assertEqual(202, self.create(spread, count=5).status_int)
        hosts = self._hosts(spread)
        self.assertNotIn(None, hosts)
        self.assertEqual([1, 2, 2], sorted(hosts.count(h) for h in set(hosts)))
        together = self.group_id('soft-affinity')
        self.assertEqual(202, self.create(together, count=4).status_int)
        self.assertEqual(1, len(set(self._hosts(together))))
        self.assertNotIn(None, self._hosts(together))


class GroupEvacuationTest(_Base):
    """h-src failed (forced down); its member is evacuated."""

    def setUp(self):
        super().setUp()
        for host in ('h-src', 'h-a', 'h-b', 'h-c'):
            nova_fixtures.add_service(host)

    def _members_on(self, group, hosts):
        """A member of ``group`` on each host (created through the API, then
        built as nova-compute would)."""
        uuids = []
        for host in hosts:
            uuid = self.server_id(group)
            instance_db.instance_update(uuid, host=host, node=host, vm_state='active',
                               task_state=None, launched_at=db_now())
            uuids.append(uuid)
        return uuids

    def _fail(self, *hosts):
        for host in hosts:
            service_db.service_update(host, service_db.COMPUTE_BINARY, forced_down=True)

    def _evacuate(self, uuid, body=None, version='2.16'):
        return self.api.request('POST', '/v2.1/servers/%s/action' % uuid, version=version,
                                body={'evacuate': body or {}})

    def _poll(self, host):
        compute = manager.ComputeManager(host)
        compute.driver.spawn_seconds = 0
        compute.poll_once()
        return compute

    def test_a_member_goes_to_the_host_without_one_even_if_busier(self):
        group = self.group_id()
        moving, _, _ = self._members_on(group, ('h-src', 'h-a', 'h-b'))
        for i in range(3):
            nova_fixtures.add_server('load%d' % i, host='h-c')
        self._fail('h-src')
        self.assertEqual(200, self._evacuate(moving).status_int)
        self.assertEqual('h-c', evacuations.for_instance(moving)[0]['dest_compute'])
        self._poll('h-c')
        self.assertEqual(('h-c', 'active'), (self.row(moving)['host'],
                                             self.row(moving)['vm_state']))

    def test_members_on_every_other_host_leave_no_valid_host_and_nothing_moves(self):
        group = self.group_id()
        moving = self._members_on(group, ('h-src', 'h-a', 'h-b', 'h-c'))[0]
        self._fail('h-src')
        self.assertEqual(200, self._evacuate(moving).status_int)
        row = self.row(moving)
        self.assertEqual(('h-src', 'error', None),
                         (row['host'], row['vm_state'], row['task_state']))
        self.assertEqual(['error'], [m['status'] for m in evacuations.for_instance(moving)])
        server = self.api.request('GET', '/v2.1/servers/' + moving).json['server']
        self.assertEqual('No valid host was found. There are not enough hosts available.',
                         server['fault']['message'])
        for host in ('h-a', 'h-b', 'h-c'):
            self.assertNotIn(moving, self._poll(host).driver.guests)
        # soft anti-affinity prefers, and never fails
        soft = self.group_id('soft-anti-affinity')
        moving = self._members_on(soft, ('h-src', 'h-a', 'h-b', 'h-c'))[0]
        self.assertEqual(200, self._evacuate(moving).status_int)
        self.assertEqual('accepted', evacuations.for_instance(moving)[0]['status'])

    @AT_2_29
    def test_a_requested_host_that_holds_a_member_is_no_valid_host(self):
        group = self.group_id()
        moving, _ = self._members_on(group, ('h-src', 'h-a'))
        self._fail('h-src')
        self.assertEqual(200, self._evacuate(moving, {'host': 'h-a'},
                                             version=avr.EVACUATE_FORCE).status_int)
        self.assertEqual('error', evacuations.for_instance(moving)[0]['status'])

    @AT_2_29
    def test_two_evacuations_racing_to_one_host_the_late_check_refuses_the_second(self):
        """Both members are sent to h-c at once (forced, so the scheduler
        does not judge them: the race it cannot see); h-c claims the first,
        and its late check refuses the second before it spawns."""
        group = self.group_id()
        first, second = self._members_on(group, ('h-src', 'h-a'))
        self._fail('h-src', 'h-a')
        request_ids = {}
        for uuid in (first, second):
            resp = self._evacuate(uuid, {'host': 'h-c', 'force': True},
                                  version=avr.EVACUATE_FORCE)
            self.assertEqual(200, resp.status_int)
            request_ids[uuid] = resp.headers['x-compute-request-id']
        self.assertEqual(['accepted', 'accepted'], [
            evacuations.for_instance(u)[0]['status'] for u in (first, second)])
        compute = self._poll('h-c')
        self.assertEqual([first], list(compute.driver.guests))
        self.assertEqual(('h-c', 'active'), (self.row(first)['host'],
                                             self.row(first)['vm_state']))
        row = self.row(second)
        self.assertEqual(('h-a', 'error', None),
                         (row['host'], row['vm_state'], row['task_state']))
        self.assertEqual('failed', evacuations.for_instance(second)[0]['status'])
        fault = self.api.request('GET', '/v2.1/servers/' + second).json['server']['fault']
        self.assertIn('Anti-affinity instance group policy was violated.', fault['message'])
        # its member reads why in its instance actions
        action = self.api.request('GET', '/v2.1/servers/%s/os-instance-actions/%s' % (
            second, request_ids[second]), token=DEMO, version='2.62').json['instanceAction']
        self.assertEqual(('Error', [('conductor_rebuild_server', 'Success'),
                                    ('compute_claim_evacuation', 'Error'),
                                    ('compute_rebuild_instance', 'Error')]),
                         (action['message'],
                          [(e['event'], e['result']) for e in action['events']]))
        # the next poll spawns nothing either
        compute.poll_once()
        self.assertEqual([first], list(compute.driver.guests))

    @AT_2_29
    def test_the_late_check_lets_other_servers_and_max_server_per_host_through(self):
        group = self.group_id(rules={'max_server_per_host': 2})
        first, second = self._members_on(group, ('h-src', 'h-a'))
        loner = nova_fixtures.add_server('loner', host='h-src', launched_at=db_now())
        self._fail('h-src', 'h-a')
        for uuid in (first, second, loner):
            self.assertEqual(200, self._evacuate(uuid, {'host': 'h-c', 'force': True},
                                                 version=avr.EVACUATE_FORCE).status_int)
        compute = self._poll('h-c')
        self.assertEqual({first, second, loner}, set(compute.driver.guests))


class GroupHostStatusTest(_Base):
    """GET /os-server-groups/{id}/host-status (ours): how a group stands."""

    def setUp(self):
        super().setUp()
        nova_fixtures.add_service('h-up')
        nova_fixtures.add_service('h-up2')
        nova_fixtures.add_service('h-down', forced_down=True)
        nova_fixtures.add_service('h-stale', seconds_ago=7200)

    def _place(self, group, host):
        uuid = self.server_id(group)
        instance_db.instance_update(uuid, host=host, node=host, vm_state='active', task_state=None)
        return uuid

    def _status(self, group, token=DEMO):
        return self.api.request('GET', '%s/%s/host-status' % (GROUPS, group), token=token)

    def test_members_by_host_status_and_a_shared_host(self):
        group = self.group_id('soft-anti-affinity')
        members = [self._place(group, host) for host in ('h-up', 'h-down', 'h-stale')]
        found = self._status(group).json['server_group_host_status']
        self.assertEqual((group, 'soft-anti-affinity', 3, 1, 2, False),
                         (found['id'], found['policy'], found['members'], found['up'],
                          found['unknown_or_down'], found['shared_host']))
        self.assertEqual([(members[0], 'UP'), (members[1], 'DOWN'), (members[2], 'UNKNOWN')],
                         [(s['id'], s['host_status']) for s in found['servers']])
        self.assertNotIn('host', found['servers'][0])
        admin = self._status(group, ADMIN).json['server_group_host_status']
        self.assertEqual(['h-up', 'h-down', 'h-stale'], [s['host'] for s in admin['servers']])
        self.assertEqual([s['hostId'] for s in found['servers']],
                         [s['hostId'] for s in admin['servers']])
        # an evacuation that found no host leaves two members on h-up2
        self._place(group, 'h-up2')
        instance_db.instance_update(members[0], host='h-up2', node='h-up2')
        found = self._status(group).json['server_group_host_status']
        self.assertEqual((4, 2, True), (found['members'], found['up'], found['shared_host']))

    def test_it_is_the_group_s_project_s_and_unknown_is_404(self):
        group = self.group_id()
        self.assertEqual(403, self._status(group, OTHER).status_int)
        self.assertEqual(404, self._status(str(uuidlib.uuid4())).status_int)
        self.assertEqual((0, False), (
            self._status(group).json['server_group_host_status']['members'],
            self._status(group).json['server_group_host_status']['shared_host']))
