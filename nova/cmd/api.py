"""nova-api: the compute API with [api] workers, under uWSGI ([api] server =
uwsgi, the default: nova/cmd/api_uwsgi.py) or gunicorn's gthread workers."""
import ipaddress
import sys

from gunicorn.app import base as gunicorn_base

import nova.conf
from nova import config

CONF = nova.conf.CONF


def is_loopback(address):
    if address in ('localhost', 'localhost.localdomain'):
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def check_auth_exposure():
    """noauth2 believes any token: never expose it beyond this machine by accident."""
    if (CONF.api.auth_strategy == 'noauth2' and not is_loopback(CONF.api.bind_host)
            and not CONF.api.allow_noauth2_on_public_address):
        raise SystemExit('refusing to serve noauth2 on %s: it trusts anyone. Bind to '
                         '127.0.0.1, use [api] auth_strategy = keystone, or set [api] '
                         'allow_noauth2_on_public_address = true.' % CONF.api.bind_host)


def serve_metrics():
    """The metrics of every worker, served by this (the master) process on
    [api] metrics_host:metrics_port; None when the port is 0."""
    if not CONF.api.metrics_port:
        return None
    from nova.metrics import multiprocess
    multiprocess.enable()
    from nova.metrics import exposition
    exposition.check_not_api_port(CONF.api.metrics_port, CONF.api.bind_port,
                                  '[api] metrics_port')
    return exposition.MetricsServer(multiprocess.registry(), CONF.api.metrics_host,
                                    CONF.api.metrics_port, '[api] metrics_port')


class GunicornApp(gunicorn_base.BaseApplication):
    def __init__(self, argv, metrics=None):
        self.argv = argv
        self.metrics = metrics
        super().__init__()

    def load_config(self):
        self.cfg.set('bind', '%s:%d' % (CONF.api.bind_host, CONF.api.bind_port))
        self.cfg.set('workers', CONF.api.workers)
        # threads: a long poll of /os-host-status-events holds one while it
        # waits, the others go on serving
        self.cfg.set('worker_class', 'gthread')
        self.cfg.set('threads', CONF.api.threads)
        self.cfg.set('timeout', 60)
        self.cfg.set('graceful_timeout', CONF.api.graceful_timeout)
        self.cfg.set('proc_name', 'nova-api')
        self.cfg.set('accesslog', None)
        if 'control_socket_disable' in self.cfg.settings:
            # one shared per-user socket path would clash between instances
            self.cfg.set('control_socket_disable', True)
        if self.metrics is not None:
            # the master serves the metrics; a worker must not hold their port
            self.cfg.set('post_fork', lambda arbiter, worker: self.metrics.close_listener())

    def load(self):
        # Each worker builds its own app, engine and policy enforcer.
        from nova.api.openstack import wsgi_app
        application = wsgi_app.load_app(request_metrics=self.metrics is not None)
        wsgi_app.serve()
        return application


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    config.parse_args(argv)
    check_auth_exposure()
    metrics = serve_metrics()
    if CONF.api.server == 'uwsgi':
        from nova.cmd import api_uwsgi
        return api_uwsgi.run(argv, metrics)
    GunicornApp(argv, metrics).run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
