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


    cfg.StrOpt('running_elsewhere_instance_action', default='reap',
               choices=[('reap', 'destroy the guest'), ('log', 'only log it'),
                        ('noop', 'do nothing')],
               help='What nova-compute does with a guest on its hypervisor whose server '
                    'lives on another host although no evacuation away from this host '
                    'ever moved it (beyond Nova: Nova leaves such a guest running). A '
                    'guest of a server evacuated away is always destroyed, as Nova does.'),
]

# Nova's names and defaults, in [DEFAULT] as Nova has them
running_deleted_opts = [
    cfg.StrOpt('running_deleted_instance_action', default='reap',
               choices=[('reap', 'destroy the guest'), ('log', 'only log it'),
                        ('shutdown', 'power the guest off'), ('noop', 'do nothing')],
               help='What nova-compute does with a guest on its hypervisor whose server '
                    'is deleted (deleted while the host was down, or during its '
                    'evacuation).'),
    cfg.IntOpt('running_deleted_instance_poll_interval', default=1800,
               help='Seconds between two looks for guests of deleted servers; 0 or less '
                    'turns the periodic look off. A compute also looks at start and '
                    'before its first heartbeat after a lapse (frozen, cut off, forced '
                    'down), whatever this says.'),
    cfg.IntOpt('running_deleted_instance_timeout', default=0,
               help='Seconds a server must have been deleted before its guest is acted '
                    'on. Above 0, a deleted server may run that long after its host '
                    'comes back.'),
]


def register_opts(conf):
    conf.register_group(compute_group)
    conf.register_opts(compute_opts, group=compute_group)
    conf.register_opts(running_deleted_opts)


def list_opts():
    return {compute_group: compute_opts, 'DEFAULT': running_deleted_opts}
