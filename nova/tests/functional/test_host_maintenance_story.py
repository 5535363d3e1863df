"""The whole maintenance story on the real all-in-one (API under
gunicorn, three nova-compute processes, the watcher): a window a few
seconds ahead shows as NEEDS_MAINTENANCE to the server's owner, with the
window in their list; at its start Nova's field says MAINTENANCE and new
servers go elsewhere; at its end all is UP again. A disabled host whose
compute froze is UNKNOWN in host-health while Nova's field still says
MAINTENANCE, and ``?host_status=MAINTENANCE&limit=1`` walks exactly the
servers of disabled hosts, page by page. Plus the rest of host-health's
cases and who sees what."""
import datetime
import urllib.parse

from nova.tests.functional import fixtures as func
from nova.tests.functional.test_host_maintenance_flow import AllInOneOnTheDatabaseClock
from nova.tests.functional.test_host_maintenance_flow import iso

ADMIN, DEMO, OTHER = func.ADMIN, func.DEMO, 'other:other'
PATH = '/v2.1/os-host-maintenance'
LEAD = 8            # seconds from scheduling to the window's start
LENGTH = 5


class MaintenanceStoryTest(AllInOneOnTheDatabaseClock):
    HOSTS = 3
    SERVICE_DOWN_TIME = 4

    def health(self, uuid, token=DEMO, status=200):
        resp = self.nova.request('GET', '/v2.1/servers/%s/host-health' % uuid, token=token)
        self.assertEqual(status, resp.status, resp.raw)
        return resp.json.get('host_health') if status == 200 else resp.json

    def field(self, uuid):
        return self.nova.show(uuid).json['server']['host_status']

    def wait_health(self, uuid, status, timeout=30):
        self.nova._wait(lambda: self.health(uuid)['status'] == status, timeout,
                        'host-health %s' % status)

    def host_of(self, uuid):
        return self.nova.show(uuid).json['server']['OS-EXT-SRV-ATTR:host']

    def walk(self, query):
        """Every server id of /servers?<query>, following the next links."""
        ids, url = [], '/v2.1/servers?' + query
        while url:
            page = self.nova.request('GET', url, version='2.16').json
            self.assertLessEqual(len(page['servers']), 1)
            ids += [s['id'] for s in page['servers']]
            links = page.get('servers_links')
            url = links[0]['href'] if links else None
            if url:
                self.assertIn('host_status=MAINTENANCE', urllib.parse.unquote(url))
        return ids

    def test_the_story(self):
        mine = self.nova.create_server_on('host-1', 'mine')
        on_host_3 = [self.nova.create_server_on('host-3', 'h3-%d' % i) for i in range(3)]
        self.assertEqual(('UP', 'up', 'enabled', None),
                         tuple(self.health(mine)[k] for k in
                               ('status', 'liveness', 'admin_state', 'maintenance')))

        start = self.now() + datetime.timedelta(seconds=LEAD)
        end = start + datetime.timedelta(seconds=LENGTH)
        resp = self.nova.request('POST', PATH, body={'maintenance': {
            'host': 'host-1', 'start': iso(start), 'end': iso(end), 'impact': 'reboot',
            'reason': 'host-1 firmware'}})
        self.assertEqual(201, resp.status, resp.raw)
        window = resp.json['maintenance']

        # announced: the owner sees it coming, the host still serves
        health = self.health(mine)
        self.assertEqual(('NEEDS_MAINTENANCE', 'up', 'enabled'),
                         (health['status'], health['liveness'], health['admin_state']))
        self.assertEqual({'id': window['id'], 'start': window['start'], 'end': window['end'],
                          'impact': 'reboot', 'state': 'scheduled'}, health['maintenance'])
        self.assertNotIn('host', health)
        self.assertEqual('UP', self.field(mine))
        listed = self.nova.request('GET', PATH, token=DEMO).json['maintenances']
        self.assertEqual([(window['id'], [mine])], [(w['id'], w['servers']) for w in listed])

        # started: Nova's field says MAINTENANCE, new servers go elsewhere
        self.wait_health(mine, 'MAINTENANCE')
        self.assertEqual('MAINTENANCE', self.field(mine))
        self.assertEqual('in-progress', self.health(mine)['maintenance']['state'])
        self.assertNotEqual('host-1', self.host_of(self.nova.create_server(name='new')))

        # ended: UP again
        self.wait_health(mine, 'UP')
        self.assertEqual('UP', self.field(mine))
        self.assertIsNone(self.health(mine)['maintenance'])
        self.assertEqual('completed', self.nova.request(
            'GET', '%s/%s' % (PATH, window['id'])).json['maintenance']['state'])

        # a disabled host whose compute froze: the health view tells
        self.nova.service_action('disable-log-reason', 'host-3', disabled_reason='disk')
        self.wait_health(on_host_3[0], 'MAINTENANCE')
        self.nova.freeze('host-3')
        self.wait_health(on_host_3[0], 'UNKNOWN')
        self.assertEqual('stale', self.health(on_host_3[0])['liveness'])
        self.assertEqual('disabled', self.health(on_host_3[0])['admin_state'])
        self.assertEqual('MAINTENANCE', self.field(on_host_3[0]))

        # the filter walks exactly the servers of disabled hosts, one a page
        walked = self.walk('all_tenants=1&host_status=MAINTENANCE&limit=1')
        self.assertEqual(sorted(on_host_3), sorted(walked))
        self.assertEqual(len(walked), len(set(walked)))
        self.nova.thaw('host-3')

    def test_who_sees_what(self):
        mine = self.nova.create_server_on('host-2', 'mine')
        admin_view = self.health(mine, token=ADMIN)
        self.assertEqual('host-2', admin_view['host'])
        self.assertIsInstance(admin_view['heartbeat_age'], float)
        self.assertLess(admin_view['heartbeat_age'], 4)
        self.assertIsNone(admin_view['disabled_reason'])
        self.assertEqual(['admin_state', 'liveness', 'maintenance', 'since', 'status'],
                         sorted(self.health(mine)))
        self.assertIn('itemNotFound', self.health(mine, token=OTHER, status=404))
        self.assertIn('itemNotFound', self.health(
            '00000000-0000-0000-0000-000000000000', status=404))
        # an operator's reason reaches admins only
        self.nova.service_action('disable-log-reason', 'host-2', disabled_reason='psu')
        self.nova._wait(lambda: self.health(mine)['status'] == 'MAINTENANCE', 30, 'disabled')
        self.assertEqual('psu', self.health(mine, token=ADMIN)['disabled_reason'])
        self.assertNotIn('psu', str(self.health(mine)))
        # forced down beats everything
        self.nova.service_action('force-down', 'host-2', forced_down=True)
        self.nova._wait(lambda: self.health(mine)['status'] == 'DOWN', 30, 'forced down')
        self.assertEqual('forced-down', self.health(mine)['admin_state'])
        self.nova.service_action('force-down', 'host-2', forced_down=False)
        self.nova.service_action('enable', 'host-2')
        # a server with no host: empty status, no-host
        nowhere = self.nova.create_server_without_a_host()
        self.assertEqual(('', 'no-host', None, None), tuple(
            self.health(nowhere)[k] for k in ('status', 'liveness', 'admin_state', 'since')))
        # since: when the watcher stored the host's last change
        self.nova._wait(lambda: self.health(mine)['status'] == 'UP', 30, 'UP again')
        self.nova._wait(lambda: self.health(mine)['since'] is not None, 30, 'since')
        events = self.nova.request('GET', '/v2.1/os-host-status-events').json['events']
        last = [e for e in events if e['host'] == 'host-2'][-1]
        self.assertEqual(last['at'], self.health(mine)['since'])
