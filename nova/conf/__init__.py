"""All configuration options, registered on one global CONF."""
from oslo_config import cfg
from oslo_log import log as logging
from oslo_middleware import http_proxy_to_wsgi
from oslo_middleware import sizelimit
from oslo_policy import opts as policy_opts

from nova.conf import api
from nova.conf import compute
from nova.conf import database
from nova.conf import default
from nova.conf import fencing
from nova.conf import host_status_watcher
from nova.conf import masakari
from nova.conf import quota
from nova.conf import scheduler
from nova.conf import servicegroup

CONF = cfg.CONF

MODULES = (default, api, database, servicegroup, compute, host_status_watcher, masakari,
           scheduler, fencing, quota)

for _module in MODULES:
    _module.register_opts(CONF)

policy_opts.set_defaults(CONF, policy_file='policy.yaml')
logging.register_options(CONF)
CONF.register_opts(http_proxy_to_wsgi.OPTS, group='oslo_middleware')
CONF.register_opts(sizelimit.OPTS, group='oslo_middleware')
