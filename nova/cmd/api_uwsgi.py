"""nova-api under uWSGI (pyuwsgi's wheels, no compiler): nova-api's
default server ([api] server = uwsgi).

This process stays the parent of uWSGI's master: it serves the workers'
metrics (prometheus_client's multiprocess files, [api] metrics_port),
passes SIGTERM and SIGINT on as a graceful stop, and exits with uWSGI.
uWSGI dies with it (PR_SET_PDEATHSIG), so nothing outlives a SIGKILL.

What uWSGI is told, and why:
* ``--http11-socket``: HTTP/1.1 spoken by the workers themselves, with
  keep-alive (an idle kept-alive connection holds its thread up to the
  socket timeout, 4 s; ``[api] keep_alive = false``: ``--http-socket``,
  a connection per request); SO_REUSEADDR, so a restart binds at once.
* ``--processes`` [api] workers, ``--threads`` [api] threads: a long poll
  of /os-host-status-events holds one thread while it waits, never a whole
  worker (the feed lets waits take at most half a worker's threads).
* ``--lazy-apps``: each worker imports nova.api.openstack.uwsgi_worker
  after the fork and builds its own app, engine and policy enforcer.
* SIGTERM is ``gracefully_kill_them_all``: workers stop accepting and
  finish what they serve, for at most [api] graceful_timeout seconds
  (``--worker-reload-mercy`` and ``--reload-mercy``: without the latter a
  worker still loading its app when the stop came kept the master waiting);
  should uWSGI still run 1 s after that, this process sends SIGQUIT (stop
  at once), and SIGKILL 5 s later: a stop is always bounded. (uWSGI's own
  mercy, when the stop came while a worker was still loading its app, ran
  out only some 11 s after the stop: a restart right after a start waited
  that long.)
* ``--harakiri 60``: a request still running after 60 s restarts its worker
  (gunicorn's worker timeout).
* ``--buffer-size``: the largest request head; the 414/431 limits are the
  app's (nova/api/openstack/header_limits.py).
"""
import ctypes
import json
import os
import signal
import subprocess
import sys
import time

import nova.conf

CONF = nova.conf.CONF
PR_SET_PDEATHSIG = 1
# seconds past [api] graceful_timeout before uWSGI is told to stop at once
# (SIGQUIT), then before it is killed
QUIT_MARGIN = 1
KILL_MARGIN = 5


def uwsgi_binary():
    beside = os.path.join(os.path.dirname(sys.executable), 'uwsgi')
    return beside if os.path.exists(beside) else 'uwsgi'


def command():
    host = CONF.api.bind_host
    if ':' in host:
        host = '[%s]' % host
    return [
        uwsgi_binary(), '--strict', '--master', '--need-app', '--lazy-apps', '--single-interpreter',
        '--http11-socket' if CONF.api.keep_alive else '--http-socket',
        '%s:%d' % (host, CONF.api.bind_port),
        '--processes', str(CONF.api.workers), '--threads', str(CONF.api.threads),
        '--thunder-lock',
        '--module', 'nova.api.openstack.uwsgi_worker:application',
        '--hook-master-start', 'unix_signal:15 gracefully_kill_them_all',
        '--hook-master-start', 'unix_signal:2 gracefully_kill_them_all',
        '--worker-reload-mercy', str(CONF.api.graceful_timeout),
        '--reload-mercy', str(CONF.api.graceful_timeout),
        '--harakiri', '60',
        '--buffer-size', '65535', '--max-vars', '512',
        '--disable-logging', '--ignore-sigpipe', '--ignore-write-errors',
        '--disable-write-exception',
        '--procname-master', 'nova-api master (uWSGI)',
        '--procname', 'nova-api worker (uWSGI)',
    ]


def _die_with_parent():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def run(argv, metrics):
    env = dict(os.environ, NOVA_API_ARGV=json.dumps(list(argv)),
               NOVA_API_REQUEST_METRICS='1' if metrics is not None else '0')
    if metrics is not None:
        # uWSGI's processes must not hold the metrics port
        os.set_inheritable(metrics.server.socket.fileno(), False)
    child = subprocess.Popen(command(), env=env, preexec_fn=_die_with_parent)
    deadline = []

    def forward(signum, _frame):
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            if not deadline:
                deadline.append(time.monotonic() + CONF.api.graceful_timeout + QUIT_MARGIN)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    escalation = [signal.SIGQUIT, signal.SIGKILL]
    while True:
        try:
            return child.wait(timeout=1)
        except subprocess.TimeoutExpired:
            if deadline and escalation and time.monotonic() > deadline[0]:
                child.send_signal(escalation.pop(0))
                deadline[0] = time.monotonic() + KILL_MARGIN
        except InterruptedError:
            continue
