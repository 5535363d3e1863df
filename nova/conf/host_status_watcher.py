from oslo_config import cfg

watcher_group = cfg.OptGroup('host_status_watcher', title='nova-host-status-watcher options')

watcher_opts = [
    cfg.FloatOpt('interval', default=0.5, min=0.05, max=1.0,
                 help='Seconds between two looks of the active watcher at every '
                      'compute service (it notices a change within this).'),
    cfg.FloatOpt('lease_ttl', default=0, min=0,
                 help='Seconds the watcher lease lasts without renewal, on the '
                      'database clock; a standby takes over that long after the '
                      'active watcher died. 0 means half of service_down_time; it '
                      'is never longer than service_down_time.'),
    cfg.IntOpt('retention_days', default=7, min=1,
               help='Days a transition stays in the feed; older ones are deleted '
                    'by the active watcher and their cursors answer 400. Finished '
                    'maintenance windows stay listed this long after their end, '
                    'and at least 7 days.'),
    cfg.HostAddressOpt('metrics_host', default='127.0.0.1',
                       help='Address the watcher serves its Prometheus metrics on '
                            '(they name every host: keep them off public networks).'),
    cfg.PortOpt('metrics_port', default=0,
                help='Port of the watcher metrics; 0 serves none. A port that is '
                     'taken stops the watcher at start.'),
    cfg.BoolOpt('notify_masakari', default=False,
                help='Act as the host monitor of OpenStack Masakari: when a compute '
                     'host becomes DOWN (forced down: a fence confirmed it is off), '
                     'the active watcher sends Masakari the COMPUTE_HOST notification '
                     'that starts its recovery of the servers there, once per '
                     'transition. The [masakari] group says how to reach it.'),
    cfg.FloatOpt('notify_after_unknown', min=0,
                 help='Also notify Masakari when a host has been UNKNOWN (heartbeat '
                      'stale, never forced down) this many seconds. Unset, a stale '
                      'heartbeat alone never starts a recovery: without a fence the '
                      'host may still run its servers while Masakari evacuates them '
                      '(see the operator guide). At least twice report_interval (a '
                      'host one beat late is alive); refused while [fencing] is on.'),
    cfg.FloatOpt('force_down_after_unknown', min=0,
                 help='Force down a compute service whose host has been UNKNOWN this '
                      'many seconds, as a fencing agent does once it has powered the '
                      'host off. Only for hosts whose stale heartbeat proves them dead '
                      '(the simulated hosts of nova-all-in-one, a drill): a live host '
                      'forced down would run its servers twice once they are '
                      'evacuated. At least twice report_interval (a host one beat '
                      'late is alive); refused while [fencing] is on. Unset: never.'),
]


def register_opts(conf):
    conf.register_group(watcher_group)
    conf.register_opts(watcher_opts, group=watcher_group)


def list_opts():
    return {watcher_group: watcher_opts}
