"""nova-host-status-watcher: notices compute service state changes, stores
and notifies them. Run several for availability; one is active (a lease in
the database)."""
import signal
import sys

import prometheus_client

import nova.conf
from nova import config
from nova.compute import fence_agents
from nova.db import waits
from nova.metrics import exposition
from nova.metrics import host_status_watcher as watcher_metrics
from nova.notifications import fencer
from nova.notifications import host_status_watcher

CONF = nova.conf.CONF


def serve_metrics():
    """The watcher's metrics, served on [host_status_watcher]
    metrics_host:metrics_port unless the port is 0."""
    metrics = watcher_metrics.WatcherMetrics(
        heartbeats_in_database=CONF.servicegroup.driver == 'db')
    opts = CONF.host_status_watcher
    if opts.metrics_port:
        exposition.check_not_api_port(opts.metrics_port, CONF.api.bind_port,
                                      '[host_status_watcher] metrics_port')
        exposition.MetricsServer(prometheus_client.REGISTRY, opts.metrics_host,
                                 opts.metrics_port, '[host_status_watcher] metrics_port')
    return metrics


def main(argv=None):
    config.parse_args(sys.argv[1:] if argv is None else argv)
    waits.enable()     # a hung database must not stall the watching for ever
    try:
        agents = fencer.check_config()
    except fence_agents.FencingConfigError as exc:
        raise SystemExit('nova-host-status-watcher: bad configuration: %s' % exc)
    watcher = host_status_watcher.Watcher(metrics=serve_metrics(), fence_agents=agents)
    signal.signal(signal.SIGTERM, lambda *_: watcher.stop())
    signal.signal(signal.SIGINT, lambda *_: watcher.stop())
    watcher.run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
