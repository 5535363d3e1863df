"""Liveness backends of a test's own: a redis-server or an etcd on free
ports, in a temporary directory, that the test may kill, restart, freeze
and thaw without touching anyone else's (never the machine's Redis on
6379). A missing binary skips the test, or fails it under
NOVA_TEST_REQUIRE_BACKENDS=1 (as CI runs)."""
import base64
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

import fixtures

from nova.tests.functional.fixtures import free_port

READY_TIMEOUT = 60
# the Debian package of each binary (.ci/run installs them)
PACKAGES = {'redis-server': 'redis-server', 'etcd': 'etcd-server',
            'prometheus': 'prometheus', 'promtool': 'prometheus'}


def require(test, binary):
    if shutil.which(binary) is None:
        reason = '%s is not installed (Debian: apt-get install %s)' % (
            binary, PACKAGES[binary])
        if os.environ.get('NOVA_TEST_REQUIRE_BACKENDS'):
            test.fail(reason)
        test.skipTest(reason)


class _Server(fixtures.Fixture):
    binary = None

    def __init__(self, test=None):
        """``test``: skip (or fail) it when the binary is missing; without
        one (benchmarks) a missing binary fails at start."""
        super().__init__()
        if test is not None:
            require(test, self.binary)
        self.process = None

    def _setUp(self):
        self.dir = self.useFixture(fixtures.TempDir()).path
        self._choose_ports()
        self.start()
        self.addCleanup(self.kill)

    def start(self):
        """Start (again, on the same ports and directory) and wait until it
        answers."""
        self.thaw()
        log = open(os.path.join(self.dir, self.binary + '.log'), 'ab')
        self.process = subprocess.Popen(self._command(), stdout=log, stderr=subprocess.STDOUT,
                                        cwd=self.dir, start_new_session=True)
        log.close()
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError('%s exited with %s; see %s' % (
                    self.binary, self.process.returncode, self.dir))
            if self._answers():
                return
            time.sleep(0.05)
        raise AssertionError('%s did not answer within %d s' % (self.binary, READY_TIMEOUT))

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def restart(self):
        self.kill()
        self.start()

    def freeze(self):
        """SIGSTOP: the port still accepts connections, nothing answers."""
        os.kill(self.process.pid, signal.SIGSTOP)
        self._frozen = True

    def thaw(self):
        if getattr(self, '_frozen', False) and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)
        self._frozen = False


class Redis(_Server):
    """redis-server keeping nothing on disk, as Debian's defaults do not:
    a restart loses every group and member."""
    binary = 'redis-server'

    def _choose_ports(self):
        self.port = free_port()

    @property
    def url(self):
        return 'redis://127.0.0.1:%d' % self.port

    def _command(self):
        return [self.binary, '--port', str(self.port), '--bind', '127.0.0.1',
                '--save', '', '--appendonly', 'no', '--dir', self.dir,
                '--maxclients', '15000',   # heartbeat_scale: a connection per member
                '--repl-diskless-sync-delay', '0']   # a replica syncs at once

    def _answers(self):
        try:
            return self.command('PING') == '+PONG'
        except OSError:
            return False

    def info(self, section):
        """INFO ``section`` as {field: value}."""
        with socket.create_connection(('127.0.0.1', self.port), timeout=10) as sock:
            sock.sendall(b'INFO %s\r\n' % section.encode())
            reply = sock.makefile('rb')
            size = int(reply.readline()[1:])      # a bulk string: $<size>
            text = reply.read(size + 2).decode()
        return dict(line.split(':', 1) for line in text.splitlines() if ':' in line)

    def calls(self, command):
        """How many times ``command`` ran so far."""
        stats = self.info('commandstats').get('cmdstat_' + command)
        return int(stats.split('calls=')[1].split(',')[0]) if stats else 0

    def heartbeats(self):
        """Heartbeats of every member so far."""
        return self.calls('evalsha')

    def holds(self, host):
        """Whether Redis still keeps ``host``'s heartbeat (its TTL runs)."""
        return self.command('EXISTS', 'nova:liveness:host:' + host) == ':1'

    def in_service(self):
        """As a Redis that has recorded heartbeats for longer than one
        report_interval (the driver reads a host missing from a Redis that
        just started empty as UNKNOWN, not down)."""
        self.command('SET', 'nova:liveness:since', '1')

    def operations(self):
        """Commands clients sent so far (a script's own commands are not
        counted), less the INFO calls that read this."""
        stats = self.info('commandstats')
        return sum(int(value.split('calls=')[1].split(',')[0])
                   for name, value in stats.items()
                   if name.startswith('cmdstat_') and name not in
                   ('cmdstat_info', 'cmdstat_set', 'cmdstat_time'))

    def clock(self):
        """Redis's TIME, UTC."""
        with socket.create_connection(('127.0.0.1', self.port), timeout=5) as sock:
            sock.sendall(b'TIME\r\n')
            reply = sock.makefile('rb')
            lines = [reply.readline() for _ in range(5)]   # *2, $n, secs, $n, usecs
        return datetime.datetime.fromtimestamp(
            int(lines[2]) + int(lines[4]) / 1e6, datetime.timezone.utc).replace(tzinfo=None)

    def command(self, *words):
        """One command in Redis's inline protocol; the first reply line."""
        with socket.create_connection(('127.0.0.1', self.port), timeout=5) as sock:
            sock.sendall((' '.join(words) + '\r\n').encode())
            return sock.makefile('rb').readline().decode().rstrip('\r\n')


class Etcd(_Server):
    """A single-member etcd cluster whose data survives restart() (as
    etcd's always does: its leases then start a new raft term)."""
    binary = 'etcd'

    def _choose_ports(self):
        # both bound at once, or the kernel may hand out the same port twice
        with socket.socket() as client, socket.socket() as peer:
            client.bind(('127.0.0.1', 0))
            peer.bind(('127.0.0.1', 0))
            self.port, self.peer_port = client.getsockname()[1], peer.getsockname()[1]

    @property
    def url(self):
        return 'etcd3+http://127.0.0.1:%d' % self.port

    def _command(self):
        client = 'http://127.0.0.1:%d' % self.port
        peer = 'http://127.0.0.1:%d' % self.peer_port
        return [self.binary, '--name', 'test', '--data-dir', os.path.join(self.dir, 'data'),
                '--listen-client-urls', client, '--advertise-client-urls', client,
                '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer,
                '--initial-cluster', 'test=' + peer, '--log-level', 'warn']

    def _answers(self):
        # healthy once it has a leader, i.e. serves requests
        try:
            with urllib.request.urlopen('http://127.0.0.1:%d/health' % self.port,
                                        timeout=5) as response:
                return json.loads(response.read()).get('health') == 'true'
        except (OSError, ValueError):
            return False

    def heartbeats(self):
        """Lease renewals so far (every member's heartbeats)."""
        return int(self.metrics().get('etcd_debugging_lease_renewed_total', 0))

    def metrics(self):
        """/metrics as {name{labels}: value}."""
        with urllib.request.urlopen('http://127.0.0.1:%d/metrics' % self.port,
                                    timeout=5) as response:
            return {line.rsplit(' ', 1)[0]: float(line.rsplit(' ', 1)[1])
                    for line in response.read().decode().splitlines()
                    if line and not line.startswith('#')}

    def requests(self, method=None):
        """gRPC calls started so far (the HTTP gateway makes one per request),
        of ``method`` or of every method."""
        return int(sum(value for name, value in self.metrics().items()
                       if name.startswith('grpc_server_started_total{')
                       and (method is None or 'grpc_method="%s"' % method in name)))

    def operations(self):
        return self.requests()

    def ranges(self):
        return self.requests('Range')

    def in_service(self):
        pass

    @staticmethod
    def clock():
        """etcd keeps no wall clock (its leases count seconds): this host's."""
        return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)

    def holds(self, host):
        """Whether etcd still keeps ``host``'s member key (its lease runs)."""
        key = base64.b64encode(b'nova/liveness/hosts/' + host.encode()).decode()
        return bool(self.call('/v3/kv/range', {'key': key}).get('kvs'))

    def call(self, path, body):
        request = urllib.request.Request(
            'http://127.0.0.1:%d%s' % (self.port, path), data=json.dumps(body).encode(),
            headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())


class EtcdCluster(fixtures.Fixture):
    """Three etcd members on loopback ports, one cluster."""

    SIZE = 3

    def __init__(self, test=None):
        super().__init__()
        if test is not None:
            require(test, 'etcd')

    def _setUp(self):
        self.members = [_ClusterMember(self, index) for index in range(self.SIZE)]
        for member in self.members:
            member.dir = self.useFixture(fixtures.TempDir()).path
            member._choose_ports()
        self.initial_cluster = ','.join('%s=http://127.0.0.1:%d' % (m.name, m.peer_port)
                                        for m in self.members)
        for member in self.members:
            member.launch()
            self.addCleanup(member.kill)
        for member in self.members:
            member.wait_ready()

    @property
    def url(self):
        first, *others = self.members
        return 'etcd3+http://127.0.0.1:%d?endpoints=%s' % (
            first.port, ','.join('127.0.0.1:%d' % m.port for m in others))

    def leader(self):
        """The member that is leader now."""
        for member in self.members:
            if member.process.poll() is None:
                try:
                    status = member.call('/v3/maintenance/status', {})
                except OSError:
                    continue
                by_id = {m.member_id(): m for m in self.members if m.process.poll() is None}
                leader = by_id.get(status.get('leader'))    # none during an election
                if leader is not None:
                    return leader
        raise AssertionError('the cluster has no leader')


class _ClusterMember(Etcd):

    def __init__(self, cluster, index):
        super().__init__()
        self.cluster = cluster
        self.name = 'm%d' % index
        self._id = None

    def launch(self):
        log = open(os.path.join(self.dir, 'etcd.log'), 'ab')
        self.process = subprocess.Popen(self._command(), stdout=log, stderr=subprocess.STDOUT,
                                        cwd=self.dir, start_new_session=True)
        log.close()

    def wait_ready(self):
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError('etcd %s exited; see %s' % (self.name, self.dir))
            if self._answers():
                return
            time.sleep(0.05)
        raise AssertionError('etcd %s did not answer' % self.name)

    def member_id(self):
        if self._id is None:
            self._id = self.call('/v3/maintenance/status', {})['header']['member_id']
        return self._id

    def _command(self):
        client = 'http://127.0.0.1:%d' % self.port
        peer = 'http://127.0.0.1:%d' % self.peer_port
        # a 100 ms heartbeat and 1 s election: etcd's defaults
        return ['etcd', '--name', self.name, '--data-dir', os.path.join(self.dir, 'data'),
                '--listen-client-urls', client, '--advertise-client-urls', client,
                '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer,
                '--initial-cluster', self.cluster.initial_cluster,
                '--initial-cluster-state', 'new', '--log-level', 'warn']


class RedisSentinel(fixtures.Fixture):
    """A Redis primary, its replica and three Sentinels watching them (the
    redis-server binary in sentinel mode), each on a free port."""

    NAME = 'nova'
    DOWN_AFTER_MS = 1000

    def __init__(self, test=None):
        super().__init__()
        if test is not None:
            require(test, 'redis-server')

    def _setUp(self):
        self.primary = self.useFixture(Redis())
        self.replica = self.useFixture(_Replica(self.primary.port))
        self.sentinels = [self.useFixture(_Sentinel(self.primary.port, self.NAME,
                                                    self.DOWN_AFTER_MS))
                          for _ in range(3)]
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            # the replica holds the primary's data only once the link is up
            # (the first sync waits repl-diskless-sync-delay, 5 s by default)
            if (self.replica.info('replication').get('master_link_status') == 'up'
                    and all(s.knows_replica() and s.knows_other_sentinels(2)
                            for s in self.sentinels)):
                return
            time.sleep(0.1)
        raise AssertionError('the replica or the sentinels never came up')

    @property
    def url(self):
        first, *others = self.sentinels
        return 'redis://127.0.0.1:%d?sentinel=%s&%s' % (
            first.port, self.NAME, '&'.join('sentinel_fallback=127.0.0.1:%d' % s.port
                                            for s in others))

    def primary_port(self):
        """The port of the primary the Sentinels name now."""
        reply = self.sentinels[0].call('SENTINEL', 'get-master-addr-by-name', self.NAME)
        return int(reply[1])

    def promoted(self):
        """Whether the replica is now a primary that the Sentinels name."""
        return (self.primary_port() == self.replica.port
                and self.replica.info('replication').get('role') == 'master')


class _Replica(Redis):
    def __init__(self, primary_port):
        super().__init__()
        self.primary_port = primary_port

    def _command(self):
        return super()._command() + ['--replicaof', '127.0.0.1', str(self.primary_port)]


class _Sentinel(Redis):
    def __init__(self, primary_port, name, down_after_ms):
        super().__init__()
        self.primary_port, self.name, self.down_after_ms = primary_port, name, down_after_ms

    def _command(self):
        path = os.path.join(self.dir, 'sentinel.conf')
        with open(path, 'w') as f:
            f.write('port %d\nbind 127.0.0.1\ndir %s\n'
                    'sentinel monitor %s 127.0.0.1 %d 2\n'
                    'sentinel down-after-milliseconds %s %d\n'
                    'sentinel failover-timeout %s 3000\n'
                    'sentinel parallel-syncs %s 1\n'
                    % (self.port, self.dir, self.name, self.primary_port, self.name,
                       self.down_after_ms, self.name, self.name))
        return ['redis-server', path, '--sentinel']

    def knows_replica(self):
        return int(self.call('SENTINEL', 'master', self.name)['num-slaves']) >= 1

    def knows_other_sentinels(self, count):
        # Sentinels find each other through the primary's hello channel; one
        # that has not yet met the others cannot reach quorum once it dies
        master = self.call('SENTINEL', 'master', self.name)
        return int(master['num-other-sentinels']) >= count

    def call(self, *words):
        """A command's reply, arrays flattened to a list of strings."""
        import redis
        client = redis.Redis(port=self.port, socket_timeout=5, decode_responses=True)
        try:
            return client.execute_command(*words)
        finally:
            client.close()
