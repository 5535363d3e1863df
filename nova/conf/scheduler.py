from oslo_config import cfg

scheduler_group = cfg.OptGroup('scheduler', title='Host selection options')

scheduler_opts = [
    cfg.IntOpt('maintenance_lookahead', default=86400, min=0,
               help='Seconds ahead in which a planned maintenance window keeps new '
                    'servers off its host, as long as any other host is valid (a '
                    'host with no window is preferred; with none left, the window '
                    'does not stop a build). 0 looks only at windows in progress.'),
]

filter_scheduler_group = cfg.OptGroup('filter_scheduler', title="Nova's optional host filters")

filter_scheduler_opts = [
    cfg.ListOpt('enabled_filters', default=[],
                help="Nova's optional host filters to apply, by name, on top of the rules "
                     'every host is held to (enabled, not forced down, up). Known here: '
                     'AggregateInstanceExtraSpecsFilter (a flavor extra spec with no scope, '
                     'or scoped aggregate_instance_extra_specs:, must match the metadata '
                     "of an aggregate holding the host, with Nova's operators); other "
                     'names are ignored.'),
]


def register_opts(conf):
    conf.register_group(scheduler_group)
    conf.register_opts(scheduler_opts, group=scheduler_group)
    conf.register_group(filter_scheduler_group)
    conf.register_opts(filter_scheduler_opts, group=filter_scheduler_group)


def list_opts():
    return {scheduler_group: scheduler_opts, filter_scheduler_group: filter_scheduler_opts}
