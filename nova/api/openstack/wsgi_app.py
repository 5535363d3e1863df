"""WSGI entry point for gunicorn, uwsgi or mod_wsgi:

    gunicorn 'nova.api.openstack.wsgi_app:init_application()'

Config files come from NOVA_CONFIG_FILES (comma-separated) or the usual
oslo.config search path (/etc/nova/nova.conf, ~/.nova/nova.conf, ...).
"""
import gc
import os

from oslo_middleware import http_proxy_to_wsgi

import nova.conf
from nova import config

CONF = nova.conf.CONF


def load_app():
    """The compute API as deployed, innermost first: the app, the body size
    limit, and behind a TLS-terminating proxy (set [oslo_middleware]
    enable_proxy_headers_parsing) the proxy headers, so links use its scheme."""
    from nova.api.openstack import app
    from nova.api.openstack import sizelimit
    from nova.db import engine
    engine.serve_requests()
    application = app.ComputeAPI()
    application = sizelimit.BodySizeLimiter(application, conf=CONF)
    if CONF.oslo_middleware.enable_proxy_headers_parsing:
        application = http_proxy_to_wsgi.HTTPProxyToWSGI(application, conf=CONF)
    return application


def tune_gc():
    """For a process that serves the API, once its app is loaded.

    A page of 1000 servers allocates some 10,000 containers that reference
    counting frees on its own; at Python's default threshold (700) the
    cyclic collector ran a dozen times during one such request, and every
    tenth request or so a full collection walked every object the process
    had loaded: a quarter of the CPU time on average, most of the p90.
    What was loaded stays (frozen out of collections); young objects are
    examined every 10,000 net allocations instead of 700.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(10000, 10, 10)


def serve():
    """For a process about to serve the loaded app (a worker of nova-api,
    uwsgi or mod_wsgi): bounded waits on the database, the GC tuned."""
    from nova.db import waits
    waits.enable()
    tune_gc()


def init_application():
    files = os.environ.get('NOVA_CONFIG_FILES')
    config.parse_args([], default_config_files=files.split(',') if files else None)
    application = load_app()
    serve()
    return application
