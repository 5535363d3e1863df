"""Command-line and config-file parsing plus logging, for every program."""
from oslo_log import log as logging

import nova.conf

CONF = nova.conf.CONF


def parse_args(argv, default_config_files=None):
    CONF(argv, project='nova', default_config_files=default_config_files)
    logging.setup(CONF, 'nova')
