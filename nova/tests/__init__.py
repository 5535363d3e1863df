import nova.conf

# In-process tests read options without a command line or config files.
nova.conf.CONF([], project='nova', default_config_files=[])
