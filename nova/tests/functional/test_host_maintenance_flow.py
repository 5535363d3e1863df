"""Maintenance windows driven by the real watcher of the all-in-one: start
and end within 2 s of their time (measured on the database's clock), the
service disabled with a reason naming the window and enabled again after,
each transition an event of its own; a restarted watcher picks up where
the stored windows are; the scheduler keeps new servers off a host whose
window is near while another host is valid."""
import datetime
import os
import signal
import sys

import psutil
import sqlalchemy as sa
import testtools
from testtools import content

from nova.db.dbtime import db_now
from nova.tests.functional import fixtures as func
from nova.tests.functional.db import backend

PATH = '/v2.1/os-host-maintenance'
FEED = '/v2.1/os-host-status-events'
ON_TIME = 2.0       # seconds: the spec's bound on start and end
LEAD = 3            # seconds ahead a test window starts


def parse(text):
    return datetime.datetime.fromisoformat(text.rstrip('Z'))


def iso(value):
    return value.isoformat() + 'Z'


class AllInOneOnTheDatabaseClock(testtools.TestCase):
    """An all-in-one per test, and the database's clock to time it by."""
    HOSTS = 2
    SERVICE_DOWN_TIME = 10

    def setUp(self):
        super().setUp()
        # (an extra.conf, so that a second watcher reads the same files)
        self.nova = self.useFixture(func.AllInOne(
            hosts=self.HOSTS, report_interval=1, service_down_time=self.SERVICE_DOWN_TIME,
            extra_config='[DEFAULT]\n'))
        self.nova.attach_logs_on_failure(self)
        self.engine = sa.create_engine(
            'sqlite:///' + os.path.join(self.nova.data_dir, 'nova.sqlite'),
            poolclass=sa.pool.NullPool)
        self.addCleanup(self.engine.dispose)

    def now(self):
        with self.engine.connect() as conn:
            return conn.scalar(sa.select(db_now()))


class MaintenanceFlowTest(AllInOneOnTheDatabaseClock):

    def schedule(self, host, lead=LEAD, length=LEAD, **extra):
        start = self.now() + datetime.timedelta(seconds=lead)
        resp = self.nova.request('POST', PATH, body={'maintenance': dict(
            host=host, start=iso(start), end=iso(start + datetime.timedelta(seconds=length)),
            **extra)})
        self.assertEqual(201, resp.status, resp.raw)
        return resp.json['maintenance']

    def window(self, uuid):
        return self.nova.request('GET', '%s/%s' % (PATH, uuid)).json['maintenance']

    def service(self, host):
        [row] = [s for s in self.nova.services() if s['host'] == host]
        return row

    def event(self, host, reason, timeout=30):
        found = []

        def seen():
            found[:] = [e for e in self.nova.request('GET', FEED).json['events']
                        if e['host'] == host and e['reason'] == reason]
            return found
        self.nova._wait(seen, timeout, '%s event of %s' % (reason, host))
        return found[-1]

    def measured(self, what, seconds):
        self.addDetail(what, content.text_content('%.3f s' % seconds))
        print('host-maintenance: %s %.3f s' % (what, seconds), file=sys.stderr)

    def test_a_window_starts_and_ends_on_time(self):
        server = self.nova.create_server_on('host-1')
        window = self.schedule('host-1', reason='firmware', impact='reboot')
        started = self.event('host-1', 'maintenance_started')
        late = (parse(started['at']) - parse(window['start'])).total_seconds()
        self.measured('window start -> service disabled', late)
        self.assertGreaterEqual(late, 0)
        self.assertLess(late, ON_TIME)
        self.assertEqual(('UP', 'MAINTENANCE', 'disabled'),
                         (started['old_status'], started['new_status'],
                          started['admin_state']))
        self.assertEqual('in-progress', self.window(window['id'])['state'])
        service = self.service('host-1')
        self.assertEqual(('disabled', 'maintenance window %s' % window['id']),
                         (service['status'], service['disabled_reason']))
        self.assertEqual('MAINTENANCE', self.nova.show(server).json['server']['host_status'])

        ended = self.event('host-1', 'maintenance_ended')
        late = (parse(ended['at']) - parse(window['end'])).total_seconds()
        self.measured('window end -> service enabled', late)
        self.assertGreaterEqual(late, 0)
        self.assertLess(late, ON_TIME)
        self.assertEqual(('MAINTENANCE', 'UP'), (ended['old_status'], ended['new_status']))
        self.assertEqual('completed', self.window(window['id'])['state'])
        self.assertEqual(('enabled', None), (self.service('host-1')['status'],
                                             self.service('host-1')['disabled_reason']))
        self.assertEqual('UP', self.nova.show(server).json['server']['host_status'])
        # create_server_on's disables of host-2 are the operator's: no window's
        self.assertEqual([('host-1', 'maintenance_started'), ('host-1', 'maintenance_ended')],
                         [(e['host'], e['reason'])
                          for e in self.nova.request('GET', FEED).json['events']
                          if e['reason'].startswith('maintenance_')])

    def test_a_host_already_disabled_stays_disabled(self):
        self.nova.service_action('disable-log-reason', 'host-2', disabled_reason='RMA')
        self.schedule('host-2')
        started = self.event('host-2', 'maintenance_started')
        self.assertEqual(('MAINTENANCE', 'MAINTENANCE'),
                         (started['old_status'], started['new_status']))
        self.event('host-2', 'maintenance_ended')
        self.assertEqual(('disabled', 'RMA'), (self.service('host-2')['status'],
                                               self.service('host-2')['disabled_reason']))

    def test_a_restarted_watcher_starts_and_ends_the_stored_windows(self):
        for host in self.nova.host_names:
            self.event(host, 'registered')
        watcher = [p for p in psutil.Process(self.nova.process.pid).children(recursive=True)
                   if 'nova.cmd.host_status_watcher' in p.cmdline()][0]
        window = self.schedule('host-1', lead=1, length=600)
        watcher.send_signal(signal.SIGKILL)
        # nobody starts it while no watcher runs
        self.nova._wait(lambda: self.now() > parse(window['start'])
                        + datetime.timedelta(seconds=1), 30, 'past the start')
        self.assertEqual('scheduled', self.window(window['id'])['state'])
        _, log = backend.spawn(self, self.nova, 'watcher-2', ['nova.cmd.host_status_watcher']
                               + backend.config_files(self.nova, 'watcher-2.conf', ''))
        self.addOnException(lambda _: self.addDetail('watcher-2.log', content.text_content(
            open(log).read()[-20000:])))
        self.addOnException(lambda _: self.addDetail('window', content.text_content(
            repr(self.window(window['id'])))))
        self.addOnException(lambda _: self.addDetail('events', content.text_content(
            repr(self.nova.request('GET', FEED).json))))
        self.event('host-1', 'maintenance_started', timeout=60)
        self.assertEqual('in-progress', self.window(window['id'])['state'])
        # ended early by moving its end
        end = iso(self.now() + datetime.timedelta(seconds=1))
        moved = self.nova.request('PUT', '%s/%s' % (PATH, window['id']),
                                  body={'maintenance': {'end': end}})
        self.assertEqual(200, moved.status, moved.raw)
        self.event('host-1', 'maintenance_ended', timeout=60)
        self.assertEqual('completed', self.window(window['id'])['state'])
        self.assertEqual('enabled', self.service('host-1')['status'])

    def test_new_servers_go_elsewhere_while_another_host_is_valid(self):
        self.schedule('host-1', lead=3600, length=600)
        for name in ('a', 'b', 'c'):
            uuid = self.nova.create_server(name=name)
            self.assertEqual('host-2', self.nova.show(uuid).json['server'][
                'OS-EXT-SRV-ATTR:host'])
        # with host-2 unavailable, the window does not stop a build
        self.nova.service_action('disable', 'host-2')
        uuid = self.nova.create_server(name='d')
        self.assertEqual('host-1', self.nova.show(uuid).json['server']['OS-EXT-SRV-ATTR:host'])
