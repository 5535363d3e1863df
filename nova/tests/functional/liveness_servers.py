"""Liveness backends of a test's own: a redis-server or an etcd on free
ports, in a temporary directory, that the test may kill, restart, freeze
and thaw without touching anyone else's (never the machine's Redis on
6379). A missing binary skips the test, or fails it under
NOVA_TEST_REQUIRE_BACKENDS=1 (as CI runs)."""
import base64
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
                '--maxclients', '15000']   # heartbeat_scale: a connection per member

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
        return self.calls('psetex')

    def holds(self, host):
        """Whether Redis still keeps ``host``'s heartbeat (its TTL runs)."""
        return self.command('EXISTS', '_tooz_beats:' + host) == ':1'

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
        with urllib.request.urlopen('http://127.0.0.1:%d/metrics' % self.port,
                                    timeout=5) as response:
            for line in response.read().decode().splitlines():
                if line.startswith('etcd_debugging_lease_renewed_total '):
                    return int(float(line.split()[1]))
        return 0

    def holds(self, host):
        """Whether etcd still keeps ``host``'s member key (its lease runs)."""
        key = base64.b64encode(b'tooz/groups/nova-compute/' + host.encode()).decode()
        return bool(self.call('/v3/kv/range', {'key': key}).get('kvs'))

    def call(self, path, body):
        request = urllib.request.Request(
            'http://127.0.0.1:%d%s' % (self.port, path), data=json.dumps(body).encode(),
            headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())
