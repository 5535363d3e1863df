"""nova-all-in-one: migrations, the API and N nova-compute processes, on the
embedded default (SQLite under a data directory) unless a --config-file
points [database] connection elsewhere.

It never restarts a compute that dies: its servers then show UNKNOWN,
which is the truth. With ``--fence redfish`` each simulated host also has
a BMC (nova/virt/bmc.py) in this process: powering a host off ends its
nova-compute at once and shuts its guests down, powering it on starts the
compute again; and the watcher fences through those BMCs.
"""
import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import yaml

from nova.virt import bmc
from nova.virt import power

POLICY_TEMPLATE = """\
# Policy overrides for this all-in-one. Edits take effect on the next request.
# Every rule and its default: oslopolicy-sample-generator --namespace nova
#
# Let project members see host_status of their servers:
#"os_compute_api:servers:show:host_status": "rule:project_reader_or_admin"
#
# Or show it to them only when it is UNKNOWN (the host stopped reporting):
#"os_compute_api:servers:show:host_status:unknown-only": "rule:project_reader_or_admin"
"""


def parse(argv):
    parser = argparse.ArgumentParser(
        prog='nova-all-in-one',
        description='Run the compute API and simulated compute hosts in one process tree.')
    parser.add_argument('--hosts', type=int, default=3, help='compute hosts (default 3)')
    parser.add_argument('--port', type=int, default=8774, help='API port (default 8774)')
    parser.add_argument('--metrics-port', type=int, default=9774,
                        help='port of the API processes\' Prometheus metrics on 127.0.0.1 '
                             '(default 9774; 0 serves none)')
    parser.add_argument('--watcher-metrics-port', type=int, default=9775,
                        help='port of the host-status watcher\'s Prometheus metrics on '
                             '127.0.0.1 (default 9775; 0 serves none)')
    parser.add_argument('--data-dir', default=os.path.abspath('nova-data'),
                        help='state directory (default ./nova-data)')
    parser.add_argument('--service-down-time', type=int,
                        help='seconds without heartbeat before a host is UNKNOWN')
    parser.add_argument('--report-interval', type=int,
                        help='seconds between heartbeats')
    parser.add_argument('--api-workers', type=int, help='API worker processes')
    parser.add_argument('--servicegroup-url', metavar='URL',
                        help='heartbeats on this Redis or etcd instead of the database '
                             '([servicegroup] driver = lease), e.g. redis://127.0.0.1:6379 '
                             'or etcd3+http://127.0.0.1:2379')
    parser.add_argument('--no-host-status-watcher', action='store_true',
                        help='do not start nova-host-status-watcher (run it elsewhere, '
                             'or go without host status events)')
    parser.add_argument('--fence', choices=('redfish',),
                        help='give every simulated host a Redfish BMC (HTTPS, self-signed) '
                             'and let the watcher fence a host that reads UNKNOWN through '
                             'it: power off, confirm, force down ([fencing] in the operator '
                             'guide)')
    parser.add_argument('--bmc-address', default='127.0.0.1',
                        help='address the BMCs listen on (default 127.0.0.1)')
    parser.add_argument('--bmc-port', type=int, default=8700,
                        help='port of the first host\'s BMC, the next host\'s is one more '
                             '(default 8700; 0: any free port each)')
    parser.add_argument('--config-file', action='append', default=[],
                        help='extra oslo.config file(s), e.g. for [database] connection')
    return parser.parse_args(argv)


def write_config(args):
    data_dir = os.path.abspath(args.data_dir)
    os.makedirs(data_dir, exist_ok=True)
    base = os.path.join(data_dir, 'nova.conf')
    with open(base, 'w') as f:
        f.write('# Written by nova-all-in-one at every start; put your own settings\n'
                '# in a file passed with --config-file.\n'
                '[database]\nconnection = sqlite:///%s\n\n'
                '[oslo_policy]\npolicy_file = %s\n\n'
                '[compute]\nfake_state_dir = %s\n'
                % (os.path.join(data_dir, 'nova.sqlite'), os.path.join(data_dir, 'policy.yaml'),
                   os.path.join(data_dir, 'hypervisors')))
        if args.fence:
            # here, not among the flags: a --config-file may tune or turn
            # off what --fence turns on
            f.write('\n[fencing]\nenabled = true\nconfig_file = %s\nfence_after_unknown = 0\n'
                    % fencing_file(data_dir))
    policy_file = os.path.join(data_dir, 'policy.yaml')
    if not os.path.exists(policy_file):
        with open(policy_file, 'w') as f:
            f.write(POLICY_TEMPLATE)
    flags = os.path.join(data_dir, 'flags.conf')
    with open(flags, 'w') as f:
        f.write('# The command-line flags of the last start.\n[DEFAULT]\n')
        if args.report_interval is not None:
            f.write('report_interval = %d\n' % args.report_interval)
        if args.service_down_time is not None:
            f.write('service_down_time = %d\n' % args.service_down_time)
        f.write('\n[api]\nbind_host = 127.0.0.1\nbind_port = %d\n' % args.port)
        if args.api_workers is not None:
            f.write('workers = %d\n' % args.api_workers)
        f.write('metrics_host = 127.0.0.1\nmetrics_port = %d\n' % args.metrics_port)
        f.write('\n[host_status_watcher]\nmetrics_host = 127.0.0.1\nmetrics_port = %d\n'
                % args.watcher_metrics_port)
        if args.servicegroup_url:
            f.write('\n[servicegroup]\ndriver = lease\nbackend_url = %s\n'
                    % args.servicegroup_url.replace('$', '$$'))   # oslo.config's $ substitution
    files = [base] + [os.path.abspath(p) for p in args.config_file] + [flags]
    return data_dir, [arg for path in files for arg in ('--config-file', path)]


def fencing_file(data_dir):
    return os.path.join(data_dir, 'fencing.yaml')


class SimulatedHost:
    """One simulated compute host as its BMC sees it: its nova-compute
    process is the host running. Off ends that process at once (SIGKILL,
    also when it is frozen) and shuts the guests down; on starts a new
    nova-compute, which finds its guests shut off."""

    def __init__(self, name, state_dir, start_compute):
        self.name = name
        self.state_dir = state_dir
        self._start_compute = start_compute
        self._lock = threading.Lock()
        self.process = None

    def boot(self):
        with self._lock:
            if power.state(self.state_dir, self.name) == power.ON:
                self.process = self._start_compute(self.name)
            return self.process

    def state(self):
        return power.state(self.state_dir, self.name)

    def off(self):
        with self._lock:
            process, self.process = self.process, None
            if process is not None:
                process.kill()
                process.wait()
            power.record(self.state_dir, self.name, power.OFF)
            print('host %s powered off by its BMC' % self.name, flush=True)

    def on(self):
        with self._lock:
            if power.state(self.state_dir, self.name) == power.OFF or self.process is None:
                power.record(self.state_dir, self.name, power.ON)
                self.process = self._start_compute(self.name)
                print('host %s powered on by its BMC' % self.name, flush=True)


def start_bmcs(args, data_dir, simulated):
    """{host: RedfishBMC} of the simulated hosts ({name: SimulatedHost}),
    serving, and the fencing file the watcher reads."""
    bmc_dir = os.path.join(data_dir, 'bmc')
    os.makedirs(bmc_dir, exist_ok=True)
    cert, key = os.path.join(bmc_dir, 'cert.pem'), os.path.join(bmc_dir, 'key.pem')
    bmc.self_signed(cert, key, args.bmc_address)
    bmcs = {}
    for index, host in enumerate(simulated):
        port = args.bmc_port + index if args.bmc_port else 0
        fault_file = os.path.join(data_dir, 'hypervisors', host + '.bmc-fault')
        try:
            bmcs[host] = bmc.RedfishBMC(
                host, simulated[host], 'admin', secrets.token_urlsafe(12), args.bmc_address,
                port, cert, key, fault=_fault_reader(fault_file)).start()
        except OSError as exc:
            for started in bmcs.values():
                started.stop()
            raise SystemExit('the BMC of %s cannot listen on %s:%d (%s); choose another '
                             '--bmc-port or --bmc-address' % (host, args.bmc_address, port,
                                                              exc.strerror))
    hosts_config = {}
    for host, server in bmcs.items():
        hosts_config[host] = {'agent': 'fence_redfish', 'options': {
            'ip': server.address, 'ipport': server.port, 'username': server.username,
            'password': server.password, 'ssl_insecure': 1, 'systems_uri': server.system_path,
            'power_timeout': 5}}
    path = fencing_file(data_dir)
    with open(path, 'w') as f:
        os.fchmod(f.fileno(), 0o600)
        f.write('# Written by nova-all-in-one --fence redfish at every start.\n')
        yaml.safe_dump({'hosts': hosts_config}, f, default_flow_style=False)
    return bmcs


def _fault_reader(path):
    """A drill's BMC fault: the first word of ``path`` when it exists
    (nova/virt/bmc.py FAULTS)."""
    def fault():
        try:
            with open(path) as f:
                return f.read().strip() or None
        except FileNotFoundError:
            return None
    return fault



def check_port_free(port, flag='--port'):
    # Otherwise the readiness check could be answered by someone else's server.
    # SO_REUSEADDR, as the servers themselves bind: a previous run's
    # connections in TIME-WAIT do not make the port taken, a listener does.
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(('127.0.0.1', port))
        except OSError as exc:
            raise SystemExit('port %d on 127.0.0.1 is taken (%s); choose another with '
                             '%s' % (port, exc.strerror, flag))


def check_ports(args):
    """Every port this tree listens on is free and its own."""
    ports = [(args.port, '--port'), (args.metrics_port, '--metrics-port')]
    if not args.no_host_status_watcher:
        ports.append((args.watcher_metrics_port, '--watcher-metrics-port'))
    ports = [(port, flag) for port, flag in ports if port]
    seen = {}
    for port, flag in ports:
        if port in seen:
            raise SystemExit('%s and %s are both %d; give each its own port'
                             % (seen[port], flag, port))
        seen[port] = flag
        check_port_free(port, flag)


def metrics_urls(args):
    """[(what, URL)] of the metrics this tree serves."""
    urls = []
    if args.metrics_port:
        urls.append(('API metrics', 'http://127.0.0.1:%d/metrics' % args.metrics_port))
    if args.watcher_metrics_port and not args.no_host_status_watcher:
        urls.append(('watcher metrics',
                     'http://127.0.0.1:%d/metrics' % args.watcher_metrics_port))
    return urls


def wait_for_api(url, processes, timeout=180):
    # generous: on a loaded machine (50 computes starting at once on 2 cores)
    # the workers took 40 s to import the app
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if processes[0].poll() is not None:
            raise SystemExit('nova-api exited with %s' % processes[0].returncode)
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit('nova-api did not answer on %s' % url)


def banner(data_dir, port, hosts, metrics=(), bmcs=None):
    base = 'http://127.0.0.1:%d' % port
    ep = base + '/v2.1'
    metric_lines = ''.join('  %-15s: %s   (Prometheus; etc/prometheus has rules)\n'
                           % (what, url) for what, url in metrics)
    if bmcs:
        metric_lines += ('  fencing        : the watcher powers off a host that reads UNKNOWN, '
                         'then forces it down\n  BMCs (Redfish, self-signed HTTPS; '
                         'fencing.yaml has them all):\n')
        metric_lines += ''.join('    %-8s %s   user %s password %s\n'
                                % (host, server.url, server.username, server.password)
                                for host, server in bmcs.items())
    return f"""
nova-all-in-one is ready.
  data directory : {data_dir}   (nova.conf, policy.yaml, nova.sqlite, logs, hypervisors)
  compute API    : {ep}   (noauth2: token "user:project"; user admin is an admin)
  compute hosts  : {', '.join(hosts)}
  status events  : {ep}/os-host-status-events   (long poll: ?after=<next>&wait=25)
{metric_lines}
Try (README.rst, "Using real clients", has more):
  export OS_AUTH_TYPE=admin_token OS_TOKEN=admin:admin OS_ENDPOINT={ep}
  export OS_IMAGE_ENDPOINT_OVERRIDE={base}/image OS_IDENTITY_ENDPOINT_OVERRIDE={base}/identity/v3
  export OS_COMPUTE_API_VERSION=2.16
  OS_TOKEN=demo:demo openstack server create --image cirros --flavor m1.tiny --wait vm1
  openstack server list --all-projects --long
  openstack compute service list --long
  OS_PROJECT_ID=unused OS_AUTH_URL={base}/identity/v3 nova list --all-tenants \\
      --fields name,status,host_status

Ctrl-C stops everything.
"""


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    check_ports(args)
    data_dir, config_args = write_config(args)
    python = sys.executable
    log_dir = os.path.join(data_dir, 'logs')
    os.makedirs(log_dir, exist_ok=True)

    subprocess.run([python, '-m', 'nova.cmd.manage'] + config_args + ['db', 'sync'],
                   check=True)
    processes = []
    lock = threading.Lock()

    def spawn(name, command):
        log = open(os.path.join(log_dir, name + '.log'), 'ab')
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        with lock:
            processes.append(process)
        return process

    def start_compute(host):
        return spawn('nova-compute-' + host,
                     [python, '-m', 'nova.cmd.compute', '--host', host] + config_args)

    stopping = []
    bmcs = {}

    def stop(*_):
        if stopping:
            return
        stopping.append(True)
        for server in bmcs.values():
            server.stop()
        with lock:
            running = list(processes)
        for process in running:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 10
        for process in running:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()

    signal.signal(signal.SIGTERM, lambda *_: (stop(), sys.exit(0)))
    signal.signal(signal.SIGINT, lambda *_: (stop(), sys.exit(0)))
    try:
        api = spawn('nova-api', [python, '-m', 'nova.cmd.api'] + config_args)
        hosts = ['host-%d' % (i + 1) for i in range(args.hosts)]
        state_dir = os.path.join(data_dir, 'hypervisors')
        simulated = {host: SimulatedHost(host, state_dir, start_compute) for host in hosts}
        if args.fence:
            bmcs.update(start_bmcs(args, data_dir, simulated))
        for host in hosts:
            # a host its BMC powered off stays off; without BMCs (nothing
            # could power it on) every host has power
            if not args.fence or power.state(state_dir, host) == power.ON:
                power.record(state_dir, host, power.ON)
        for host in hosts:
            if simulated[host].boot() is None:
                print('host %s is powered off: power it on through its BMC' % host, flush=True)
        watcher = None
        if not args.no_host_status_watcher:
            # its own process, never inside the API's forked workers
            watcher = spawn('nova-host-status-watcher',
                            [python, '-m', 'nova.cmd.host_status_watcher'] + config_args)
        wait_for_api('http://127.0.0.1:%d/' % args.port, [api])
        print(banner(data_dir, args.port, hosts, metrics_urls(args), bmcs), flush=True)
        reported = set()
        while True:
            if api.poll() is not None:
                print('nova-api exited (%s); stopping' % api.returncode, flush=True)
                return 1
            for host in hosts:
                process = simulated[host].process
                if (process is not None and process.poll() is not None
                        and process not in reported):
                    reported.add(process)
                    print('nova-compute %s exited (%s); not restarted: its servers '
                          'will show UNKNOWN' % (host, process.returncode), flush=True)
            if (watcher is not None and watcher.poll() is not None
                    and watcher not in reported):
                reported.add(watcher)
                print('nova-host-status-watcher exited (%s); no more host status events '
                      'until one runs again' % watcher.returncode, flush=True)
            time.sleep(0.5)
    finally:
        stop()


if __name__ == '__main__':
    sys.exit(main())
