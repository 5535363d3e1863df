"""[fencing]: the host-status watcher powers a host off through its BMC
before it forces the host down (nova/notifications/fencer.py)."""
from oslo_config import cfg

fencing_group = cfg.OptGroup(
    'fencing', title='Fencing by the host-status watcher',
    help='Power off a compute host that stopped reporting, confirm it is off, and only '
         'then force its service down and let an HA engine recover its servers.')

fencing_opts = [
    cfg.BoolOpt('enabled', default=False,
                help='Fence compute hosts that stay UNKNOWN. Needs config_file; '
                     '[host_status_watcher] force_down_after_unknown and '
                     'notify_after_unknown must then be unset.'),
    cfg.StrOpt('config_file',
               help='YAML file with a fence agent per compute host: '
                    '"hosts: {NAME: {agent: fence_redfish, options: {...}, timeout: 30}}". '
                    'Every enabled compute host needs an entry.'),
    cfg.FloatOpt('fence_after_unknown', default=30.0, min=0,
                 help='Seconds a host stays UNKNOWN (its heartbeat older than '
                      'service_down_time) before the watcher fences it; 0: at once.'),
    cfg.FloatOpt('agent_timeout', default=60.0, min=0.1,
                 help='Seconds one run of a fence agent may take unless the host\'s '
                      'entry sets timeout; an agent still running then is killed and the '
                      'fence counts as failed.'),
    cfg.FloatOpt('retry_initial', default=2.0, min=0.1,
                 help='Seconds before a failed fence is tried again; doubled after every '
                      'further failure of the same host, up to retry_max.'),
    cfg.FloatOpt('retry_max', default=60.0, min=0.1,
                 help='Longest wait between two attempts to fence one host.'),
    cfg.FloatOpt('brake_threshold', default=0.5, min=0.0, max=1.0,
                 help='Share of enabled compute hosts that may read UNKNOWN at once. '
                      'Above it (or while the liveness backend does not answer) the '
                      'watcher fences nothing, forces nothing down and notifies no HA '
                      'engine: the fault is more likely on the watcher\'s side than on '
                      'that many hosts. It resumes once the share is back at or below.'),
    cfg.FloatOpt('brake_window', default=0, min=0,
                 help='Seconds a host must have read UNKNOWN before it is fenced, at '
                      'least: hosts that fail together turn UNKNOWN up to a heartbeat '
                      'apart, and the brake must see them all before the first is '
                      'fenced. 0 means twice report_interval. A fence waits for the '
                      'longer of this and fence_after_unknown.'),
    cfg.IntOpt('max_fences_per_tick', default=1, min=1,
               help='Fences the watcher starts in one tick at most.'),
]


def register_opts(conf):
    conf.register_group(fencing_group)
    conf.register_opts(fencing_opts, group=fencing_group)


def list_opts():
    return {fencing_group: fencing_opts}
