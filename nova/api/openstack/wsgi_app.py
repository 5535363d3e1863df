"""WSGI entry point for gunicorn, uwsgi or mod_wsgi:

    gunicorn 'nova.api.openstack.wsgi_app:init_application()'

Config files come from NOVA_CONFIG_FILES (comma-separated) or the usual
oslo.config search path (/etc/nova/nova.conf, ~/.nova/nova.conf, ...).
"""
import os

from nova import config


def init_application():
    files = os.environ.get('NOVA_CONFIG_FILES')
    config.parse_args([], default_config_files=files.split(',') if files else None)
    from nova.api.openstack import app
    return app.ComputeAPI()
