"""nova-all-in-one: migrations, the API and N nova-compute processes, on the
embedded default (SQLite under a data directory) unless a --config-file
points [database] connection elsewhere.

It never restarts a compute that dies: its servers then show UNKNOWN,
which is the truth.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

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


def banner(data_dir, port, hosts, metrics=()):
    base = 'http://127.0.0.1:%d' % port
    ep = base + '/v2.1'
    metric_lines = ''.join('  %-15s: %s   (Prometheus; etc/prometheus has rules)\n'
                           % (what, url) for what, url in metrics)
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

    def spawn(name, command):
        log = open(os.path.join(log_dir, name + '.log'), 'ab')
        processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))

    stopping = []

    def stop(*_):
        if stopping:
            return
        stopping.append(True)
        for process in processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 10
        for process in processes:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()

    signal.signal(signal.SIGTERM, lambda *_: (stop(), sys.exit(0)))
    signal.signal(signal.SIGINT, lambda *_: (stop(), sys.exit(0)))
    try:
        spawn('nova-api', [python, '-m', 'nova.cmd.api'] + config_args)
        hosts = ['host-%d' % (i + 1) for i in range(args.hosts)]
        for host in hosts:
            spawn('nova-compute-' + host,
                  [python, '-m', 'nova.cmd.compute', '--host', host] + config_args)
        watcher = None
        if not args.no_host_status_watcher:
            # its own process, never inside the API's forked workers
            spawn('nova-host-status-watcher',
                  [python, '-m', 'nova.cmd.host_status_watcher'] + config_args)
            watcher = processes[-1]
        wait_for_api('http://127.0.0.1:%d/' % args.port, processes)
        print(banner(data_dir, args.port, hosts, metrics_urls(args)), flush=True)
        while True:
            if processes[0].poll() is not None:
                print('nova-api exited (%s); stopping' % processes[0].returncode, flush=True)
                return 1
            for host, process in zip(hosts, processes[1:]):
                if process.poll() is not None and not getattr(process, 'reported', False):
                    process.reported = True
                    print('nova-compute %s exited (%s); not restarted: its servers '
                          'will show UNKNOWN' % (host, process.returncode), flush=True)
            if (watcher is not None and watcher.poll() is not None
                    and not getattr(watcher, 'reported', False)):
                watcher.reported = True
                print('nova-host-status-watcher exited (%s); no more host status events '
                      'until one runs again' % watcher.returncode, flush=True)
            time.sleep(0.5)
    finally:
        stop()


if __name__ == '__main__':
    sys.exit(main())
