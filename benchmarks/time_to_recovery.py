"""Time to recovery: from SIGKILL of a compute running 10 servers to the last
of them ACTIVE on another host, through the host-status watcher, OpenStack
Masakari 22 and evacuate, with the all-in-one behind Keystone 30.

    python -m benchmarks.time_to_recovery [--runs 5] [--servers 10]
        [--recovery-threads N] [--hash-rounds N] [--fence redfish
        [--brake-window S]]

Drill configuration: report_interval 1 s, service_down_time 3 s; the
all-in-one's own watcher (its nova-host-status-watcher process) with
``notify_masakari = true`` and ``force_down_after_unknown = 2`` (twice
report_interval, the least the watcher takes without a fence): it forces a
host down 2 s after it first reads UNKNOWN, and the DOWN that follows is
what it notifies Masakari of. ``--fence redfish`` adds a second drill
beside that one, its runs alternating with the first's: its compute is
SIGSTOPped instead (a hung host) and its watcher fences it through its
simulated BMC with Debian's fence_redfish ([fencing], the all-in-one's
``--fence redfish``): fence_requested, the BMC's power-off (the host's
power record), fence_confirmed (the agent read Off) and the force-down
are the fence's waits, each read from its own record. Masakari's engine
runs with the short wait periods of the functional tests
(masakari_server.WAITS), its API without the random delay before a
notification (NO_DELAY). The results and what bounds each wait:
benchmarks/README.rst, "Time to recovery".

Each drill is one all-in-one with ``--runs`` + 2 hosts for every run;
run k kills host-k, whose compute the all-in-one never restarts (Masakari
leaves it disabled and forced down, and on maintenance in its segment),
so each run recovers a host of its own. Before a run its servers are booted on
host-k (every other live host disabled meanwhile); after it they are
deleted, so the next victim runs only its own.

Each wait is read from the timestamps the services record, all on this
machine's clock (SQLite's clock is it): the watcher's events (``at``,
``last_seen_up``, ``host_monitor_at``), Masakari's recovery-flow progress
timestamps, the evacuations' migration rows (created when evacuate is
accepted; ``done`` in the transaction that makes the server ACTIVE on its
new host), the BMC's power record (the mtime of the host's ``.power``
file, written once its compute is gone and its guests shut down). After
each run: every server is ACTIVE exactly once, elsewhere, and its guest
runs on that host alone, not on the victim; a fenced victim is Off and runs
none (a SIGKILLed one still "runs" them: the gap fencing closes). The
last line is one JSON object of the figures.
"""
import argparse
import contextlib
import datetime
import json
import os
import statistics
import time

import sqlalchemy as sa

from nova.db import fencing as fencing_store
from nova.db import host_status_events as store
from nova.db.models import host_status_events, migrations
from nova.tests.functional import fixtures as func
from nova.tests.functional import keystone_server
from nova.tests.functional import masakari_server
from nova.tests.functional import server_actions
from nova.virt import fake
from nova.virt import power

REPORT_INTERVAL = 1
# the least force_down_after_unknown the watcher takes without a fence
UNFENCED_HOLD = 2 * REPORT_INTERVAL
DOWN_TIME = 3
V253 = '2.53'
GOAL = 15.0
TIMEOUT = 180
FINAL = ('finished', 'error', 'failed', 'ignored')
# masakari-api sleeps a random 0-5 s before it creates a notification (its
# notification_delay_max) unless a coordination backend is set: a guard
# against duplicates from several API workers. The drill runs one.
NO_DELAY = {'notification_delay_max': 0}

DRILL_CONFIG = """
[host_status_watcher]
notify_masakari = true
%(fencing)s
[masakari]
auth_type = password
auth_url = %(url)s
username = masakari
password = %(password)s
project_name = service
user_domain_name = Default
project_domain_name = Default
region_name = %(region)s
"""

# (key, what ends it): consecutive, so the waits add up to the total
WAITS = [
    ('stale', 'the watcher reads UNKNOWN (stale heartbeat)'),
    ('hold', 'fence_requested: the fence starts (fenced only)'),
    ('power_off', 'the BMC powered the host off (fenced only)'),
    ('confirm', 'fence_confirmed: the agent read Off (fenced only)'),
    ('fence', 'the watcher forces the service down'),
    ('down', 'the watcher reads DOWN'),
    ('notify', 'Masakari accepted the notification'),
    ('engine', 'Masakari\'s recovery flow starts'),
    ('evacuate', 'the first evacuate accepted'),
    ('active', 'the last server ACTIVE elsewhere'),
]
FENCE_WAITS = ('hold', 'power_off', 'confirm')
# sums of consecutive waits: (key, first wait, last wait, what)
SPANS = [
    ('fence_share', 'hold', 'down', 'UNKNOWN -> DOWN read: the fence\'s share (unfenced: '
                                    'the force-down\'s)'),
    ('ours', 'stale', 'notify', 'kill -> Masakari accepted: detection, fence, notification'),
]


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


class Drill:
    """Keystone, Masakari, and an all-in-one behind them whose watcher is
    Masakari's host monitor."""

    def __init__(self, hosts, recovery_threads=None, hash_rounds=None, fence=None,
                 brake_window=None):
        self.hosts = hosts
        self.fence = fence
        self.brake_window = brake_window
        self.label = 'fenced (%s)' % fence if fence else 'unfenced'
        self.waits = dict(masakari_server.WAITS, **NO_DELAY)
        if recovery_threads is not None:
            self.waits['host_failure_recovery_threads'] = recovery_threads
        self.keystone_config = ('\n[identity]\npassword_hash_rounds = %d\n' % hash_rounds
                                if hash_rounds else '')

    def __enter__(self):
        self.keystone = keystone_server.Keystone(self.keystone_config)
        self.keystone.setUp()
        try:
            self.masakari = masakari_server.Masakari(self.keystone, self.waits)
            self.masakari.setUp()
            self.admin = self.keystone.connect('admin', 'admin')
            tokens = {func.ADMIN: self.admin.session.get_token(),
                      func.DEMO: self.keystone.connect('demo', 'demo').session.get_token()}
            config = self.keystone.authtoken_config() + DRILL_CONFIG % {
                'url': self.keystone.url, 'password': keystone_server.PASSWORD,
                'region': keystone_server.REGION,
                'fencing': self._fencing_config()}
            self.nova = func.AllInOne(hosts=self.hosts, report_interval=REPORT_INTERVAL,
                                      service_down_time=DOWN_TIME, extra_config=config,
                                      tokens=tokens, ready_timeout=180, fence=self.fence)
            self.nova.validate_schemas = False
            self.nova.setUp()
            self.keystone.register('compute', 'nova', self.nova.url + '/v2.1')
            segment = self.masakari.segment(self.admin, 'drill', self.nova.host_names)
            self.masakari_hosts = {h.name: h.uuid
                                   for h in self.admin.instance_ha.hosts(segment.uuid)}
            self.db = sa.create_engine('sqlite:///%s'
                                       % os.path.join(self.nova.data_dir, 'nova.sqlite'))
            self.state_dir = os.path.join(self.nova.data_dir, 'hypervisors')
        except BaseException:
            self.__exit__()
            raise
        self.dead = set()
        return self

    def _fencing_config(self):
        """[host_status_watcher] lines, and [fencing] ones beyond what the
        all-in-one's --fence sets."""
        if not self.fence:
            return 'force_down_after_unknown = %g\n' % UNFENCED_HOLD
        if self.brake_window:
            return '\n[fencing]\nbrake_window = %g\n' % self.brake_window
        return ''

    def __exit__(self, *exc):
        try:
            if getattr(self, 'nova', None) is not None:
                self.nova.cleanUp()
        finally:
            try:
                if getattr(self, 'masakari', None) is not None:
                    self.masakari.cleanUp()
            finally:
                self.keystone.cleanUp()

    # -------------------------------------------------------------- a run

    def boot(self, host, count):
        """``count`` servers ACTIVE on ``host``: every other live host is
        disabled while they are scheduled."""
        nova = self.nova
        others = [h for h in nova.host_names if h != host and h not in self.dead]
        for other in others:
            nova.service_action('disable', other)
        try:
            servers = [nova.create_server(name='%s-%d' % (host, i), wait_status=None)
                       for i in range(count)]
            for uuid in servers:
                nova.wait_for_server(uuid, 'ACTIVE', timeout=60)
        finally:
            for other in others:
                nova.service_action('enable', other)
        for uuid in servers:
            placed = nova.show(uuid).json['server']['OS-EXT-SRV-ATTR:host']
            assert placed == host, (uuid, placed, host)
        return servers

    def baseline(self):
        with self.db.connect() as conn:
            return (conn.scalar(sa.select(sa.func.max(host_status_events.c.id))) or 0,
                    conn.scalar(sa.select(sa.func.max(migrations.c.id))) or 0)

    def events(self, host, after):
        with self.db.connect() as conn:
            return conn.execute(
                sa.select(host_status_events)
                .where(host_status_events.c.host == host, host_status_events.c.id > after)
                .order_by(host_status_events.c.id)).mappings().all()

    def evacuations(self, after):
        with self.db.connect() as conn:
            return conn.execute(
                sa.select(migrations).where(migrations.c.id > after)
                .order_by(migrations.c.id)).mappings().all()

    def wait_recovered(self, host, servers, after_migration, deadline):
        """Until every server's evacuation is done, read on the all-in-one's
        database: nothing but SQLite reads meanwhile (polling Masakari's
        single-worker API would delay the notification it is handed)."""
        while True:
            done = {m['instance_uuid'] for m in self.evacuations(after_migration)
                    if m['status'] == 'done'}
            if done >= set(servers):
                return
            if time.monotonic() > deadline:
                raise SystemExit('%s: %d of %d servers evacuated after %d s; watcher log:\n%s'
                                 '\n%s' % (host, len(done & set(servers)), len(servers),
                                           TIMEOUT, self.log('nova-host-status-watcher'),
                                           self.masakari.logs()))
            time.sleep(0.2)

    def notification(self, host):
        """Masakari's notification for ``host`` once it ended, with its
        progress timestamps (microversion 1.1)."""
        ha = self.admin.instance_ha
        (notification,) = ha.notifications(source_host_uuid=self.masakari_hosts[host])
        done = self.masakari.wait_for_notification(
            self.admin, notification.notification_uuid, FINAL)
        if done.status != 'finished':
            raise SystemExit('notification %s is %s:\n%s' % (done.notification_uuid,
                                                            done.status, self.masakari.logs()))
        return ha.get('/notifications/%s' % done.notification_uuid,
                      microversion='1.1').json()['notification']

    def password_checks(self, start, end):
        """Password authentications Keystone made between ``start`` and
        ``end``: its log has a password_hashing line for each (its clock
        is this machine's; local time is UTC here)."""
        count = 0
        with open(os.path.join(self.keystone.dir, 'keystone.log'), errors='replace') as f:
            for line in f:
                if 'keystone.common.password_hashing' in line:
                    at = datetime.datetime.strptime(line[:23], '%Y-%m-%d %H:%M:%S.%f')
                    count += start <= at <= end
        return count

    def log(self, name):
        with open(os.path.join(self.nova.data_dir, 'logs', name + '.log'), 'rb') as f:
            return f.read()[-6000:].decode('utf-8', 'replace')

    def run(self, host, count):
        servers = self.boot(host, count)
        after_event, after_migration = self.baseline()
        t0 = self.kill(host)
        self.dead.add(host)
        self.wait_recovered(host, servers, after_migration, time.monotonic() + TIMEOUT)
        flow = self.notification(host)
        evacuated = [m for m in self.evacuations(after_migration)
                     if m['instance_uuid'] in servers]
        stamps, down = self.stamps(host, after_event, flow, evacuated)
        if ({m['instance_uuid'] for m in evacuated if m['status'] == 'done'} != set(servers)
                or down['host_monitor_result'] != store.SENT):
            raise SystemExit('%s: not every server evacuated, or not notified: %s %s'
                             % (host, [dict(m) for m in evacuated], dict(down)))
        figures = {'heartbeat_age': (t0 - stamps.pop('last_seen_up')).total_seconds(),
                   'left_running': self.check_recovered(host, servers)}
        figures.update(_waits(t0, stamps))
        figures['finished'] = (_parse(flow['updated_at']) - stamps['active']).total_seconds()
        figures['keystone_auths'] = self.password_checks(t0, stamps['active'])
        self.delete(servers)
        return figures

    def kill(self, host):
        """SIGKILL the host's compute, or SIGSTOP it when fenced (never
        while it holds SQLite's write lock); the moment after."""
        if self.fence:
            self.nova.freeze_outside_writes(host)                   # SIGSTOP
        else:
            self.nova.compute_process(host).kill()                  # SIGKILL
        return utcnow()

    def stamps(self, host, after_event, flow, evacuated):
        """{wait key: when it ended} from the records, and the DOWN event."""
        events = self.events(host, after_event)
        unknown = _first(events, lambda e: e['new_status'] == 'UNKNOWN')
        down = _first(events, lambda e: e['new_status'] == 'DOWN')
        steps = [p for task in flow['recovery_workflow_details']
                 for p in task['progress_details']]
        stamps = {
            'last_seen_up': unknown['last_seen_up'], 'stale': unknown['at'],
            'hold': unknown['at'], 'power_off': unknown['at'], 'confirm': unknown['at'],
            'fence': _first(events, lambda e: e['reason'] == store.SERVICE_UPDATE)['at'],
            'down': down['at'],
            'notify': down['host_monitor_at'],
            'engine': min(_parse(p['timestamp']) for p in steps),
            'evacuate': min(m['created_at'] for m in evacuated),
            'active': max(m['updated_at'] for m in evacuated),
        }
        if self.fence:
            stamps.update(
                hold=_first(events, lambda e: e['reason'] == fencing_store.FENCE_REQUESTED)['at'],
                power_off=self.powered_off_at(host),
                confirm=_first(events,
                               lambda e: e['reason'] == fencing_store.FENCE_CONFIRMED)['at'])
        return stamps, down

    def powered_off_at(self, host):
        """When the BMC recorded ``host`` Off: its power file's mtime."""
        path = os.path.join(self.state_dir, host + '.power')
        if power.state(self.state_dir, host) != power.OFF:
            raise SystemExit('%s was forced down but its BMC never powered it off' % host)
        return datetime.datetime.fromtimestamp(
            os.stat(path).st_mtime, datetime.timezone.utc).replace(tzinfo=None)

    def check_recovered(self, host, servers):
        """Every server ACTIVE and UP exactly once, on another host, whose
        simulated hypervisor alone runs its guest; a fenced ``host`` runs
        none of them. Returns how many of them ``host``'s hypervisor still
        runs (a SIGKILLed compute's guests run on)."""
        nova = self.nova
        listed = [s['id'] for s in nova.request(
            'GET', '/v2.1/servers/detail?all_tenants=1', version=V253).json['servers']]
        running = {h: {uuid for uuid, state in server_actions.guests(nova, h).items()
                       if state == fake.POWER_RUNNING} for h in nova.host_names}
        for uuid in servers:
            server = nova.request('GET', '/v2.1/servers/%s' % uuid,
                                  version=V253).json['server']
            where = server['OS-EXT-SRV-ATTR:host']
            elsewhere = sorted(h for h in running if h != host and uuid in running[h])
            if ((server['status'], server['host_status']) != ('ACTIVE', 'UP')
                    or where == host or listed.count(uuid) != 1 or elsewhere != [where]):
                raise SystemExit('%s not recovered exactly once elsewhere: %s, listed %d '
                                 'times, running on %s' % (uuid, server, listed.count(uuid),
                                                           elsewhere))
        left = len(running[host] & set(servers))
        if self.fence and left:
            raise SystemExit('%s was fenced but still runs %d of its guests' % (host, left))
        return left

    def delete(self, servers):
        for uuid in servers:
            self.nova.request('DELETE', '/v2.1/servers/%s' % uuid, token=func.DEMO)
        for uuid in servers:
            self.nova._wait(lambda: self.nova.show(uuid).status == 404, 60,
                            'server %s deleted' % uuid)


def _first(events, predicate):
    for event in events:
        if predicate(event):
            return event
    raise SystemExit('no such event among %s' % [dict(e) for e in events])


def _parse(text):
    return datetime.datetime.fromisoformat(text.replace('Z', '')).replace(tzinfo=None)


def _waits(t0, stamps):
    """Each wait from the end of the one before it (the first from the
    kill), the spans and the total."""
    figures, previous = {}, t0
    for key, _ in WAITS:
        figures[key] = (stamps[key] - previous).total_seconds()
        previous = stamps[key]
    keys = [key for key, _ in WAITS]
    for span, first, last, _ in SPANS:
        figures[span] = sum(figures[k] for k in keys[keys.index(first):keys.index(last) + 1])
    figures['total'] = (stamps['active'] - t0).total_seconds()
    return figures


ROWS = ([('heartbeat_age', 'age of the last heartbeat at the kill (not a wait)')]
        + WAITS + [(key, what) for key, _, _, what in SPANS]
        + [('total', 'SIGKILL (fenced: SIGSTOP) -> last server ACTIVE elsewhere'),
           ('left_running', 'of the servers, guests the victim\'s hypervisor still runs '
                            '(a count)'),
           ('finished', 'last ACTIVE -> Masakari notification finished '
                        '(not in the total; Masakari keeps whole seconds)'),
           ('keystone_auths', 'password authentications in Keystone, kill -> '
                              'last ACTIVE (a count)')])
COUNTS = ('left_running', 'keystone_auths')


def summarize(results):
    """{key: {'p50', 'max'}} over the runs of one drill."""
    return {key: {'p50': round(statistics.median(r[key] for r in results), 2),
                  'max': round(max(r[key] for r in results), 2)} for key, _ in ROWS}


def table(summaries):
    """Lines of a table, one column per drill ({label: summary}), p50 / max."""
    lines = ['%-14s' % 'p50 / max' + ''.join('%18s' % label for label in summaries)
             + '  ends when']
    for key, what in ROWS:
        cells = []
        for label, summary in summaries.items():
            if key in FENCE_WAITS and not label.startswith('fenced'):
                cells.append('%18s' % '-')
                continue
            unit = '' if key in COUNTS else 's'
            cells.append('%18s' % ('%.2f%s / %.2f%s' % (summary[key]['p50'], unit,
                                                         summary[key]['max'], unit)))
        lines.append('%-14s%s  %s' % (key, ''.join(cells), what))
    return lines


def fence_adds(summaries):
    """What fencing adds at p50 (fenced minus unfenced): between UNKNOWN
    and DOWN, to our part, to the total; {} without a fenced drill."""
    fenced = [s for label, s in summaries.items() if label.startswith('fenced')]
    if not fenced or 'unfenced' not in summaries:
        return {}
    return {key: round(fenced[0][key]['p50'] - summaries['unfenced'][key]['p50'], 2)
            for key in ('fence_share', 'ours', 'total')}


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--servers', type=int, default=10, help='servers on the killed host')
    parser.add_argument('--recovery-threads', type=int,
                        help='Masakari\'s host_failure_recovery_threads (its default: 3)')
    parser.add_argument('--hash-rounds', type=int,
                        help='Keystone\'s bcrypt password_hash_rounds for the users the drill '
                             'adds, Masakari\'s among them (its default: 12)')
    parser.add_argument('--fence', choices=('redfish',),
                        help='a second drill, its runs alternating with the unfenced one\'s: '
                             'SIGSTOP the compute and let the watcher fence it through its '
                             'simulated Redfish BMC (fence_redfish) before it forces it down')
    parser.add_argument('--brake-window', type=float,
                        help='with --fence: [fencing] brake_window, the seconds a host reads '
                             'UNKNOWN before it is fenced (default: twice report_interval)')
    return parser.parse_args(argv)


def drive(drills, runs, servers):
    """Run k of every drill in turn, k = 1..runs: {label: [figures]}."""
    results = {drill.label: [] for drill in drills}
    for k in range(runs):
        for drill in drills:
            figures = drill.run('host-%d' % (k + 1), servers)
            results[drill.label].append(figures)
            print('run %d %s: %s' % (k + 1, drill.label, ' '.join(
                '%s %.2f' % (key, figures[key])
                for key in ['total'] + [w for w, _ in WAITS])), flush=True)
    return results


def main():
    args = parse()
    drills = [Drill(args.runs + 2, args.recovery_threads, args.hash_rounds, fence,
                    args.brake_window)
              for fence in [None] + ([args.fence] if args.fence else [])]
    print('report_interval %d s, service_down_time %d s, unfenced: '
          'force_down_after_unknown %g%s, Masakari %s, Keystone password_hash_rounds %s; '
          'goal <= %.0f s' % (
              REPORT_INTERVAL, DOWN_TIME, UNFENCED_HOLD,
              ('; fenced: fence_redfish, fence_after_unknown 0, brake_window %g s'
               % (args.brake_window or 2.0 * REPORT_INTERVAL) if args.fence else ''),
              ', '.join('%s %s' % kv for kv in sorted(drills[0].waits.items())),
              args.hash_rounds or 'default', GOAL), flush=True)
    with contextlib.ExitStack() as stack:
        for drill in drills:
            stack.enter_context(drill)
        results = drive(drills, args.runs, args.servers)
    summaries = {label: summarize(figures) for label, figures in results.items()}
    print('\n'.join(table(summaries)))
    print(json.dumps(dict(summaries, runs=args.runs, servers=args.servers, fence=args.fence,
                          fence_adds_p50=fence_adds(summaries),
                          service_down_time=DOWN_TIME, report_interval=REPORT_INTERVAL,
                          goal=GOAL, masakari=drills[0].waits,
                          password_hash_rounds=args.hash_rounds), sort_keys=True))


if __name__ == '__main__':
    main()
