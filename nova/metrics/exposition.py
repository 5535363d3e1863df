"""Serving a registry over HTTP on a listen address of its own.

Metrics name hosts and routes: they are served on their own address
(loopback by default), never on the public API port, and a port that is
taken stops the process at start with a message saying which option to
change.
"""
import errno
import logging

import prometheus_client

LOG = logging.getLogger(__name__)


class MetricsServer:
    """The HTTP server of one registry, in a daemon thread of this process."""

    def __init__(self, registry, host, port, option):
        """``option`` names the setting of ``host`` and ``port`` (e.g.
        "[api] metrics_port") for the error a taken port gives."""
        # a *_created series per counter only doubles what Prometheus stores
        prometheus_client.disable_created_metrics()
        try:
            self.server, self.thread = prometheus_client.start_http_server(
                port, addr=host, registry=registry)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise SystemExit('metrics port %d on %s is taken; choose another with %s'
                                 % (port, host, option)) from None
            raise SystemExit('cannot serve metrics on %s:%d (%s): %s'
                             % (host, port, option, exc.strerror or exc)) from None
        self.url = 'http://%s:%d/metrics' % (_url_host(host), port)
        LOG.info('serving metrics on %s', self.url)

    def close_listener(self):
        """Close this process's copy of the listening socket (a forked
        child that must not keep the port open)."""
        self.server.socket.close()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def _url_host(host):
    return '[%s]' % host if ':' in host else host


def check_not_api_port(port, api_port, option):
    """Metrics are never served on the public API's port (on any address)."""
    if port and port == api_port:
        raise SystemExit('%s = %d is the API port: metrics name hosts and are never '
                         'served on the public API port' % (option, port))
