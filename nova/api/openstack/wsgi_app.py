"""WSGI entry point for gunicorn, uwsgi or mod_wsgi:

    gunicorn 'nova.api.openstack.wsgi_app:init_application()'

Config files come from NOVA_CONFIG_FILES (comma-separated) or the usual
oslo.config search path (/etc/nova/nova.conf, ~/.nova/nova.conf, ...).
"""
import os

from oslo_middleware import http_proxy_to_wsgi

import nova.conf
from nova import config
from nova.api.openstack import gc_tuning

CONF = nova.conf.CONF


def load_app(request_metrics=False):
    """The compute API as deployed, innermost first: the app (which limits
    request bodies itself, nova/api/openstack/sizelimit.py), behind a
    TLS-terminating proxy (set [oslo_middleware]
    enable_proxy_headers_parsing) the proxy headers, so links use its scheme,
    and with ``request_metrics`` (nova-api with [api] metrics_port) the
    metrics of every request."""
    from nova.api.openstack import app
    from nova.db import engine
    engine.serve_requests()
    application = app.ComputeAPI()
    if CONF.oslo_middleware.enable_proxy_headers_parsing:
        application = http_proxy_to_wsgi.HTTPProxyToWSGI(application, conf=CONF)
    if request_metrics:
        from nova.metrics import api_requests
        # multiprocess mode: the values go to the master's files, no registry
        application = api_requests.RequestMetrics(application, registry=None)
    return application


def serve():
    """For a process about to serve the loaded app (a worker of nova-api,
    uwsgi or mod_wsgi): bounded waits on the database (nova/db/waits.py),
    the garbage collector tuned."""
    from nova.db import waits
    waits.enable()
    gc_tuning.tune()


def init_application():
    files = os.environ.get('NOVA_CONFIG_FILES')
    config.parse_args([], default_config_files=files.split(',') if files else None)
    application = load_app()
    serve()
    return application
