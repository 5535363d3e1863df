"""Randomized fault injection against a running all-in-one: seeded histories
that mix compute freezes (SIGSTOP/SIGCONT), kills and restarts, force-down
and unforce, evacuations (with and without a host, to a host that froze a
moment ago), an HA engine's retry (reset-state, then evacuate again) and a
member's deletes, reboots, stops and starts, and full disks (a host's
spawns fail: builds and evacuations to it), all through the REST API,
signals and the simulated hosts' files. The judge is what the simulated hypervisors run (their guest
files) against DESIGN section 8:

- I1 after every step: a live server has a guest on at most one host that
  is not forced down;
- I2 after every step: a server deleted 5 s ago or more has no guest on a
  host whose compute has run unfrozen and unforced for 5 s;
- after a final quiescence (every compute running and unforced, no fault):
  (every disk freed) I3 every ACTIVE server whose host reads UP runs
  there and nowhere else,
  and every guest belongs to a live server on its host; I4 no task state
  and no open evacuation remains; I5 no created server is lost.

As HA engines do, it evacuates only from forced-down hosts.
Used by nova/tests/functional/test_chaos.py (CI's seeds) and
``python -m benchmarks.chaos`` (soaks).
"""
import os
import random
import time

import sqlalchemy

from nova.db.models import migrations
from nova.tests.functional import fixtures as func
from nova.tests.functional import server_actions as sa

ADMIN, DEMO = func.ADMIN, func.DEMO
SETTLE = 5.0
OPEN = ('accepted', 'pre-migrating')


class Violation(AssertionError):
    pass


class History:
    """One seeded history on ``nova`` (a running func.AllInOne)."""

    def __init__(self, nova, seed, steps, log=None, db_url=None):
        """``db_url``: the all-in-one's database (its SQLite file unless
        given), read for open evacuations, which no API lists."""
        self.nova = nova
        self.db = sqlalchemy.create_engine(
            db_url or 'sqlite:///' + os.path.join(nova.data_dir, 'nova.sqlite'),
            poolclass=sqlalchemy.pool.NullPool)
        self.rng = random.Random(seed)
        self.seed = seed
        self.steps = steps
        self.log = log or (lambda line: None)
        # the servers earlier histories left are this one's too
        self.created = [s['id'] for s in nova.request(
            'GET', '/v2.1/servers?all_tenants=1').json['servers']]
        self.deleted = {}           # uuid -> time.monotonic() of its 204
        self.forced = set()
        self.frozen = set()
        self.killed = set()
        self.full = set()           # hosts whose disk is full
        self.starting = {}          # host -> its restart log's size before the restart
        self.restarted = nova.restarted_computes
        self.disturbed = {h: time.monotonic() for h in nova.host_names}
        self.faults = 0
        self.trail = []

    # ------------------------------------------------------------ running

    def run(self):
        for _ in range(3):
            self._create()
        for step in range(self.steps):
            action = self.rng.choice(self._actions())
            self.trail.append(action.__name__)
            action()
            self.check_safety('after step %d (%s)' % (step, action.__name__))
            time.sleep(self.rng.uniform(0, 0.6))
        self.quiesce()
        self.check_all()

    def _actions(self):
        return [self._create, self._member_delete, self._member_power, self._member_power,
                self._freeze, self._thaw, self._kill, self._restart,
                self._force_down, self._unforce, self._evacuate, self._evacuate,
                self._ha_retry, self._fill_disk, self._free_disk]

    def _note(self, what):
        self.log('seed %s: %s' % (self.seed, what))

    def _disturb(self, host):
        self.disturbed[host] = time.monotonic()
        self.faults += 1

    def _live(self):
        return [u for u in self.created if u not in self.deleted]

    def _server(self, uuid):
        resp = self.nova.show(uuid)
        return resp.json['server'] if resp.status == 200 else None

    # ------------------------------------------------------------ members

    def _create(self):
        up = [h for h in self.nova.host_names
              if h not in self.forced | self.frozen | self.killed]
        if len(self._live()) >= 8 or not up:
            return
        self.created.append(self.nova.create_server('chaos', wait_status=None))

    def _member_delete(self):
        live = self._live()
        if live:
            uuid = self.rng.choice(live)
            resp = self.nova.request('DELETE', '/v2.1/servers/%s' % uuid, token=DEMO)
            if resp.status == 204:
                self.deleted[uuid] = time.monotonic()
                self._note('deleted %s' % uuid)

    def _member_power(self):
        live = self._live()
        if live:
            body = self.rng.choice([{'reboot': {'type': 'HARD'}}, {'reboot': {'type': 'SOFT'}},
                                    {'os-stop': None}, {'os-start': None}])
            sa.act(self.nova, self.rng.choice(live), body, DEMO)

    # ------------------------------------------------------------ hosts

    def _freeze(self):
        hosts = [h for h in self.nova.host_names if h not in self.frozen | self.killed]
        if hosts:
            host = self.rng.choice(hosts)
            self.nova.freeze_outside_writes(host)
            self.frozen.add(host)
            self._disturb(host)

    def _thaw(self, host=None):
        if self.frozen:
            host = host or self.rng.choice(sorted(self.frozen))
            self.nova.thaw(host)
            self.frozen.discard(host)
            self._disturb(host)

    def _kill(self):
        hosts = [h for h in self.nova.host_names if h not in self.killed]
        if hosts:
            host = self.rng.choice(hosts)
            process = self.nova.compute_process(host)
            process.kill()
            if host in self.restarted:
                self.restarted.pop(host).wait(10)
            else:
                process.wait(10)
            self.frozen.discard(host)
            self.starting.pop(host, None)
            self.killed.add(host)
            self._disturb(host)

    def _restart(self, host=None):
        if self.killed:
            host = host or self.rng.choice(sorted(self.killed))
            log = self.nova.restart_log(host)
            self.starting[host] = os.path.getsize(log) if os.path.exists(log) else 0
            self.nova.start_compute(host)
            self.killed.discard(host)
            self._disturb(host)

    def _note_starts(self):
        """A restarted host's 5 s count from its compute's start, not from
        its spawn: on a loaded machine the imports alone can take longer."""
        for host, offset in list(self.starting.items()):
            with open(self.nova.restart_log(host), 'rb') as log:
                log.seek(offset)
                if b'nova-compute on host %s started' % host.encode() in log.read():
                    del self.starting[host]
                    self.disturbed[host] = time.monotonic()

    def _force(self, host, down):
        resp = self.nova.service_action('force-down', host, version='2.11',
                                        forced_down=down)
        if resp.status == 200:
            (self.forced.add if down else self.forced.discard)(host)
            self._disturb(host)
        return resp.status

    def _force_down(self):
        # never every host: something must be left to evacuate to
        hosts = [h for h in self.nova.host_names if h not in self.forced]
        if len(hosts) > 2:
            self._force(self.rng.choice(hosts), True)

    def _unforce(self):
        if self.forced:
            self._force(self.rng.choice(sorted(self.forced)), False)

    def _fill_disk(self):
        hosts = [h for h in self.nova.host_names if h not in self.full]
        if hosts:
            host = self.rng.choice(hosts)
            self.nova.fill_disk(host)
            self.full.add(host)
            self.faults += 1

    def _free_disk(self, host=None):
        if self.full:
            host = host or self.rng.choice(sorted(self.full))
            self.nova.fill_disk(host, full=False)
            self.full.discard(host)

    # ------------------------------------------------------------ HA engine

    def _evacuable(self):
        servers = []
        for uuid in self._live():
            server = self._server(uuid)
            if server and server['OS-EXT-SRV-ATTR:host'] in self.forced:
                servers.append(server)
        return servers

    def _evacuate(self, server=None):
        servers = [server] if server else self._evacuable()
        if not servers:
            return
        server = self.rng.choice(servers)
        body = {}
        if self.rng.random() < 0.5:
            # a given host, forced below 2.29: maybe one that froze a moment ago
            targets = [h for h in self.nova.host_names
                       if h != server['OS-EXT-SRV-ATTR:host'] and h not in self.forced]
            if targets:
                body['host'] = self.rng.choice(targets)
        resp = sa.act(self.nova, server['id'], {'evacuate': body}, version='2.16')
        self._note('evacuate %s from %s %s: %s' % (
            server['id'], server['OS-EXT-SRV-ATTR:host'], body, resp.status))

    def _ha_retry(self):
        servers = self._evacuable()
        if servers:
            server = self.rng.choice(servers)
            sa.act(self.nova, server['id'], {'os-resetState': {'state': 'error'}})
            self._evacuate(server)

    # ------------------------------------------------------------ judging

    def _guests(self):
        return {host: sa.guests(self.nova, host) for host in self.nova.host_names}

    def check_safety(self, when):
        self._note_starts()
        guests = self._guests()
        now = time.monotonic()
        for uuid in self._live():
            unfenced = [h for h, g in guests.items() if uuid in g and h not in self.forced]
            if len(unfenced) > 1:
                raise Violation('I1 %s: %s runs on %s (forced down: %s; trail %s)' % (
                    when, uuid, unfenced, sorted(self.forced), self.trail))
        settled = [h for h in self.nova.host_names
                   if h not in self.forced | self.frozen | self.killed | set(self.starting)
                   and now - self.disturbed[h] >= SETTLE]
        for uuid, at in self.deleted.items():
            if now - at < SETTLE:
                continue
            for host in settled:
                if uuid in guests[host]:
                    raise Violation('I2 %s: deleted %s still on %s (trail %s)' % (
                        when, uuid, host, self.trail))

    def quiesce(self, timeout=90):
        """Every compute running and unforced, then settled: no task, no
        open evacuation, the evacuated hosts' copies gone."""
        for host in sorted(self.frozen):
            self._thaw(host)
        for host in sorted(self.killed):
            self._restart(host)
        for host in sorted(self.full):
            self._free_disk(host)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for host in sorted(self.forced):
                self._force(host, False)
            servers = [self._server(u) for u in self._live()]
            self._note_starts()
            if (not self.forced and not self.starting and not self._open_migrations()
                    and all(s and s['OS-EXT-STS:task_state'] is None for s in servers)
                    and all(s['host_status'] == 'UP' for s in servers
                            if s['OS-EXT-SRV-ATTR:host'])):
                break
            self.check_safety('while quiescing')
            time.sleep(0.5)
        time.sleep(SETTLE)

    def _open_migrations(self):
        with self.db.connect() as conn:
            return conn.execute(
                sqlalchemy.select(migrations.c.instance_uuid, migrations.c.status)
                .where(migrations.c.status.in_(OPEN))).all()

    def check_all(self):
        self.check_safety('after quiescence')
        guests = self._guests()
        live = {}
        for uuid in self._live():
            server = self._server(uuid)
            if server is None:
                raise Violation('I5: server %s is lost' % uuid)
            live[uuid] = server
        for uuid, server in live.items():
            if server['OS-EXT-STS:task_state'] is not None:
                raise Violation('I4: %s still %s' % (uuid, server['OS-EXT-STS:task_state']))
            host = server['OS-EXT-SRV-ATTR:host']
            running = sorted(h for h, g in guests.items() if uuid in g)
            if server['status'] == 'ACTIVE' and server['host_status'] == 'UP' \
                    and running != [host]:
                raise Violation('I3: ACTIVE %s on %s runs on %s (trail %s)' % (
                    uuid, host, running, self.trail))
        for host, on_host in guests.items():
            for uuid in on_host:
                server = live.get(uuid)
                if server is None or server['OS-EXT-SRV-ATTR:host'] != host:
                    shown = self._server(uuid)
                    raise Violation('I3: a guest of %s on %s (server: %s; created here %s; '
                                    'trail %s)' % (
                                        uuid, host, shown and (
                                            shown['OS-EXT-SRV-ATTR:host'], shown['status'],
                                            shown['OS-EXT-STS:task_state']),
                                        uuid in self.created, self.trail))
        still_open = self._open_migrations()
        if still_open:
            raise Violation('I4: open evacuations %s' % still_open)

    def stop(self):
        for host in sorted(self.frozen):
            self._thaw(host)
        for host in sorted(self.full):
            self._free_disk(host)
        self.db.dispose()


# the all-in-one histories run on: four hosts, short liveness
ALL_IN_ONE = dict(hosts=4, report_interval=1, service_down_time=4)
