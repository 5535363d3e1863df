"""Fencing end to end: ``nova-all-in-one --fence redfish`` gives every
simulated host a Redfish BMC, and its watcher fences a host that stops
reporting through Debian's unmodified ``fence_redfish`` (fence-agents):
power off, confirm Off, and only then force the service down.

A hung compute (SIGSTOP, the case a fence exists for: its guests would
run on) is powered off, its nova-compute ends and its guests stop; the
other hosts run on. A BMC that answers 500, one that hangs and one that
refuses Off never let the host be forced down. Two hosts hanging at once
engage the brake on mass fencing: nothing is fenced until they are back,
and fencing resumes after.
"""
import json
import os
import subprocess
import time

import testtools
import yaml

from nova.tests.functional import fixtures as func
from nova.tests.functional import liveness_servers
from nova.tests.functional import partition
from nova.tests.functional.test_metrics import scrape

FEED = '/v2.1/os-host-status-events'
SHUTDOWN, RUNNING = 4, 1
# a hanging BMC costs agent_timeout; failures are retried within seconds
EXTRA = '[fencing]\nagent_timeout = 8\nretry_initial = 1\nretry_max = 3\n'


class FencingHelpers:
    """What the fencing tests read and do on ``self.nova`` (an all-in-one
    with ``fence='redfish'``)."""

    def hypervisor_file(self, name):
        return os.path.join(self.nova.data_dir, 'hypervisors', name)

    def guests(self, host):
        with open(self.hypervisor_file(host + '.json')) as f:
            return json.load(f)

    def power(self, host):
        with open(self.hypervisor_file(host + '.power')) as f:
            return f.read().strip()

    def set_fault(self, host, fault):
        path = self.hypervisor_file(host + '.bmc-fault')
        if fault is None:
            if os.path.exists(path):
                os.remove(path)
        else:
            with open(path, 'w') as f:
                f.write(fault)

    def fence_redfish(self, host, action):
        """Debian's fence_redfish on the all-in-one's fencing.yaml alone:
        its exit code."""
        with open(os.path.join(self.nova.data_dir, 'fencing.yaml')) as f:
            options = yaml.safe_load(f)['hosts'][host]['options']
        stdin = ''.join('%s=%s\n' % item for item in [('action', action)] + sorted(
            options.items()))
        return subprocess.run(['fence_redfish'], input=stdin, text=True, capture_output=True,
                              timeout=60).returncode

    def service(self, host):
        return [s for s in self.nova.services() if s['host'] == host][0]

    def feed(self):
        events, after = [], None
        while True:
            path = FEED + '?limit=1000' + ('&after=%s' % after if after else '')
            page = self.nova.request('GET', path).json
            events += page['events']
            if not page['events']:
                return events
            after = page['next']

    def reasons(self, host=None, since=0):
        return [e['reason'] for e in self.feed()[since:]
                if host is None or e['host'] == host]

    def metric(self, name, labels=()):
        return scrape(self.nova.watcher_metrics_url)[1].get((name, tuple(labels)))

    def running_compute(self, host):
        try:
            return self.nova.compute_process(host).status() != 'stopped'
        except (LookupError, func.psutil.NoSuchProcess):
            return False

    def wait(self, predicate, what, timeout=60):
        self.nova._wait(predicate, timeout, what)

    def bring_back(self, host):
        """What an operator does for a repaired host: power on, unforce,
        enable."""
        before = self.service(host)['updated_at']
        self.assertEqual(0, self.fence_redfish(host, 'on'))
        self.wait(lambda: self.running_compute(host), 'nova-compute of %s again' % host)
        # unforced before it reports, it would read UNKNOWN and be fenced again
        self.wait(lambda: self.service(host)['updated_at'] != before,
                  'a heartbeat of %s' % host)
        response = self.nova.service_action('force-down', host, version='2.11',
                                            forced_down=False)
        self.assertEqual(200, response.status, response.raw)
        self.assertEqual(200, self.nova.service_action('enable', host).status)
        self.wait(lambda: self.service(host)['state'] == 'up', '%s up' % host)

    def fence_failures(self, host):
        return self.reasons(host).count('fence_failed')


class FencingTest(FencingHelpers, func.SharedAllInOneTestCase):

    ALL_IN_ONE = dict(hosts=3, report_interval=1, service_down_time=3, fence='redfish',
                      extra_config=EXTRA, ready_timeout=90)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def test_a_hung_host_is_powered_off_confirmed_then_forced_down(self):
        ours = [self.nova.create_server_on('host-1', name='fenced-%d' % i) for i in range(2)]
        other = self.nova.create_server_on('host-2', name='bystander')
        since = len(self.feed())
        self.assertEqual({uuid: RUNNING for uuid in ours}, self.guests('host-1'))

        self.nova.freeze_outside_writes('host-1')
        self.wait(lambda: self.service('host-1')['forced_down'], 'host-1 forced down')

        # powered off before forced down: the hung compute is gone, its
        # guests are shut off, the BMC says Off
        self.assertFalse(self.running_compute('host-1'))
        self.assertEqual('Off', self.power('host-1'))
        self.assertEqual({uuid: SHUTDOWN for uuid in ours}, self.guests('host-1'))
        service = self.service('host-1')
        self.assertEqual('disabled', service['status'])
        self.assertIn('fenced by nova-host-status-watcher at ', service['disabled_reason'])
        events = [e for e in self.feed()[since:] if e['host'] == 'host-1']
        reasons = [e['reason'] for e in events]
        reasons = reasons[reasons.index('heartbeat_stale'):]     # after create_server_on's
        self.assertEqual(['heartbeat_stale', 'fence_requested', 'fence_confirmed'],
                         reasons[:3])
        self.wait(lambda: 'forced_down' in self.reasons('host-1', since), 'DOWN in the feed')
        self.assertEqual(1, self.metric('nova_fences_total', (('host', 'host-1'),
                                                              ('result', 'confirmed'))))

        # the other hosts run on
        self.assertEqual(RUNNING, self.guests('host-2')[other])
        self.assertTrue(self.running_compute('host-2'))
        self.assertTrue(self.running_compute('host-3'))
        self.assertEqual('up', self.service('host-2')['state'])
        self.assertEqual('ACTIVE', self.nova.show(other).json['server']['status'])

        # powered on: the guests are there, shut off, their servers stopped
        self.assertEqual(0, self.fence_redfish('host-1', 'on'))
        self.wait(lambda: self.running_compute('host-1'), 'nova-compute of host-1 again')
        for uuid in ours:
            self.nova.wait_for_server(uuid, 'SHUTOFF', timeout=30)
        self.assertEqual({uuid: SHUTDOWN for uuid in ours}, self.guests('host-1'))
        self.bring_back('host-1')     # powering on again changes nothing
        self.nova.request('POST', '/v2.1/servers/%s/action' % ours[0], body={'os-start': None})
        self.nova.wait_for_server(ours[0], 'ACTIVE', timeout=30)
        self.assertEqual(RUNNING, self.guests('host-1')[ours[0]])

    def test_fence_redfish_powers_a_simulated_host_off_and_on(self):
        self.assertEqual(0, self.fence_redfish('host-3', 'status'))     # 0: on
        self.assertEqual(0, self.fence_redfish('host-3', 'off'))
        self.assertEqual(2, self.fence_redfish('host-3', 'status'))     # 2: off
        self.assertFalse(self.running_compute('host-3'))
        # the watcher sees it UNKNOWN and fences it: already off, confirmed
        self.wait(lambda: self.service('host-3')['forced_down'], 'host-3 forced down')
        self.bring_back('host-3')

    def test_a_failing_bmc_never_lets_the_host_be_forced_down(self):
        self.set_fault('host-2', '500')
        self.addCleanup(self.set_fault, 'host-2', None)
        since = len(self.feed())
        self.nova.freeze_outside_writes('host-2')
        for fault in ('500', 'refuse-off', 'hang'):
            self.set_fault('host-2', fault)
            failures = self.fence_failures('host-2')
            self.wait(lambda: self.fence_failures('host-2') > failures,
                      'a failed fence (%s)' % fault, timeout=90)
            service = self.service('host-2')
            self.assertFalse(service['forced_down'], fault)
            self.assertEqual('enabled', service['status'], fault)
            self.assertTrue(self.nova.compute_process('host-2').is_running())
            self.assertEqual('On', self.power('host-2'))
        self.assertNotIn('fence_confirmed', self.reasons('host-2', since))
        self.assertEqual(1, self.metric('nova_fence_failing', (('host', 'host-2'),)))
        # the BMC answers again: the next try fences
        self.set_fault('host-2', None)
        self.wait(lambda: self.service('host-2')['forced_down'], 'host-2 forced down',
                  timeout=90)
        self.assertEqual('Off', self.power('host-2'))
        self.assertEqual(0, self.metric('nova_fence_failing', (('host', 'host-2'),)))
        self.bring_back('host-2')

    def test_the_brake_holds_when_most_hosts_hang_and_fencing_resumes(self):
        since = len(self.feed())
        self.nova.freeze_outside_writes('host-2')
        self.nova.freeze_outside_writes('host-3')
        self.wait(lambda: 'fence_brake_engaged' in self.reasons(since=since), 'brake engaged')
        self.assertEqual(1, self.metric('nova_fencing_brake_engaged'))
        # both stay UNKNOWN well past the window: neither is fenced (an
        # absence: it can only be watched for a while)
        time.sleep(8)
        self.assertNotIn('fence_requested', self.reasons(since=since))
        for host in ('host-2', 'host-3'):
            self.assertFalse(self.service(host)['forced_down'])
            self.assertEqual('On', self.power(host))
        self.nova.thaw('host-2')
        self.nova.thaw('host-3')
        self.wait(lambda: 'fence_brake_released' in self.reasons(since=since),
                  'brake released')
        self.assertEqual(0, self.metric('nova_fencing_brake_engaged'))
        self.assertNotIn('fence_requested', self.reasons(since=since))
        # one host hanging alone is fenced again
        self.nova.freeze_outside_writes('host-3')
        self.wait(lambda: self.service('host-3')['forced_down'], 'host-3 forced down')
        self.bring_back('host-3')


class OneSidedPartitionTest(FencingHelpers, testtools.TestCase):
    """The case that once forced every host down in one tick: the computes
    lose the liveness backend (Redis) while the watcher does not. Every
    lease vanishes at once; the brake holds: nothing is fenced, forced
    down or reported, and the event, notification, metric and log say why.
    Once the partition heals, fencing resumes."""

    def setUp(self):
        super().setUp()
        redis = self.useFixture(liveness_servers.Redis(self))
        self.partition = self.useFixture(partition.OneSidedPartition(redis.port))
        self.nova = self.useFixture(func.AllInOne(
            hosts=3, servicegroup_url=self.partition.url, fence='redfish',
            extra_config=EXTRA, ready_timeout=90))
        self.nova.attach_logs_on_failure(self)

    def watcher_log(self):
        with open(os.path.join(self.nova.data_dir, 'logs',
                               'nova-host-status-watcher.log')) as f:
            return f.read()

    def test_the_brake_holds_through_a_one_sided_partition(self):
        since = len(self.feed())
        self.partition.cut.set()
        self.wait(lambda: 'fence_brake_engaged' in self.reasons(since=since),
                    'brake engaged')
        self.assertEqual(1, self.metric('nova_fencing_brake_engaged'))
        self.wait(lambda: {s['state'] for s in self.nova.services()} == {'down'},
                    'every host UNKNOWN')
        # the notification follows its committed event (the watcher's outbox)
        self.wait(lambda: 'service.fence_brake.engage' in self.watcher_log(),
                  'the engage notification')
        log = self.watcher_log()
        # why: the hosts went UNKNOWN a heartbeat apart, the brake engaged
        # at the second or third
        self.assertTrue(any(why in log for why in (
            'fencing brake engaged: 2 of 3 enabled compute hosts are UNKNOWN',
            'fencing brake engaged: every enabled compute host (3) is UNKNOWN')), log[-3000:])
        # an absence: watched for a while, well past the fence delay
        time.sleep(8)
        self.assertNotIn('fence_requested', self.reasons(since=since))
        for host in self.nova.host_names:
            self.assertFalse(self.service(host)['forced_down'], host)
            self.assertEqual('On', self.power(host))
            self.assertTrue(self.running_compute(host), host)
        self.assertGreater(self.partition.swallowed, 0)

        self.partition.heal()
        self.wait(lambda: 'fence_brake_released' in self.reasons(since=since),
                    'brake released', timeout=90)
        self.wait(lambda: {s['state'] for s in self.nova.services()} == {'up'},
                    'every host UP', timeout=90)
        self.assertEqual(0, self.metric('nova_fencing_brake_engaged'))
        self.wait(lambda: 'service.fence_brake.release' in self.watcher_log(),
                  'the release notification')
        self.assertNotIn('fence_requested', self.reasons(since=since))
        # fencing resumes: one hung host is fenced
        self.nova.freeze('host-1')
        self.wait(lambda: self.service('host-1')['forced_down'], 'host-1 forced down')
        self.assertEqual('Off', self.power('host-1'))
