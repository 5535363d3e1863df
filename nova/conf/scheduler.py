from oslo_config import cfg

scheduler_group = cfg.OptGroup('scheduler', title='Host selection options')

scheduler_opts = [
    cfg.IntOpt('maintenance_lookahead', default=86400, min=0,
               help='Seconds ahead in which a planned maintenance window keeps new '
                    'servers off its host, as long as any other host is valid (a '
                    'host with no window is preferred; with none left, the window '
                    'does not stop a build). 0 looks only at windows in progress.'),
]


def register_opts(conf):
    conf.register_group(scheduler_group)
    conf.register_opts(scheduler_opts, group=scheduler_group)


def list_opts():
    return {scheduler_group: scheduler_opts}
