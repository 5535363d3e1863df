"""Command-line and config-file parsing plus logging, for every program."""
from oslo_log import log as logging

import nova.conf
from nova.conf import liveness_backend

CONF = nova.conf.CONF


def parse_args(argv, default_config_files=None):
    CONF(argv, project='nova', default_config_files=default_config_files)
    logging.setup(CONF, 'nova')
    check_liveness_backend()


def check_liveness_backend():
    """Refuse to start on a backend_url the lease driver could not honour,
    rather than fail in a heartbeat thread or a request later."""
    if CONF.servicegroup.driver in ('lease', 'tooz'):
        try:
            liveness_backend.parse(CONF.servicegroup.backend_url, CONF.service_down_time)
        except liveness_backend.InvalidBackendURL as exc:
            raise SystemExit('nova: %s' % exc) from None
