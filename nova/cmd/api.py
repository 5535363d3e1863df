"""nova-api: the compute API under gunicorn with [api] workers."""
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


class GunicornApp(gunicorn_base.BaseApplication):
    def __init__(self, argv):
        self.argv = argv
        super().__init__()

    def load_config(self):
        self.cfg.set('bind', '%s:%d' % (CONF.api.bind_host, CONF.api.bind_port))
        self.cfg.set('workers', CONF.api.workers)
        # threads: a long poll of /os-host-status-events holds one while it
        # waits, the others go on serving
        self.cfg.set('worker_class', 'gthread')
        self.cfg.set('threads', CONF.api.threads)
        self.cfg.set('timeout', 60)
        self.cfg.set('graceful_timeout', 5)
        self.cfg.set('proc_name', 'nova-api')
        self.cfg.set('accesslog', None)
        if 'control_socket_disable' in self.cfg.settings:
            # one shared per-user socket path would clash between instances
            self.cfg.set('control_socket_disable', True)

    def load(self):
        # Each worker builds its own app, engine and policy enforcer.
        from nova.api.openstack import wsgi_app
        application = wsgi_app.load_app()
        wsgi_app.serve()
        return application


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    config.parse_args(argv)
    check_auth_exposure()
    GunicornApp(argv).run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
