from oslo_config import cfg

compute_group = cfg.OptGroup('compute', title='nova-compute options')

compute_opts = [
    cfg.FloatOpt('work_poll_interval', default=0.5, min=0.05,
                 help='Seconds between two looks of nova-compute at the database '
                      'for servers to build or delete on its host.'),
    cfg.FloatOpt('fake_spawn_seconds', default=0.2, min=0,
                 help='How long the fake virt driver takes to spawn a server.'),
    cfg.StrOpt('fake_state_dir',
               help='Directory where the fake virt driver keeps the guests of each '
                    'host (<host>.json), so they outlive a nova-compute restart as a '
                    'real hypervisor\'s do. Unset: in memory only.'),
]


def register_opts(conf):
    conf.register_group(compute_group)
    conf.register_opts(compute_opts, group=compute_group)


def list_opts():
    return {compute_group: compute_opts}
