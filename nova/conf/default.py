import socket

from oslo_config import cfg

host_opts = [
    cfg.StrOpt('host', default=socket.gethostname(), sample_default='<current_hostname>',
               help='Name of this node; nova-compute registers its service under it.'),
    cfg.IntOpt('report_interval', default=10, min=1,
               help='Seconds between two heartbeats of a service.'),
    cfg.IntOpt('service_down_time', default=60, min=1,
               help='A service whose last heartbeat is older than this many seconds '
                    '(on the database clock) is down; its servers show host_status '
                    'UNKNOWN. Keep it well above report_interval.'),
    cfg.StrOpt('default_availability_zone', default='nova',
               help='Availability zone of every compute host.'),
]


def register_opts(conf):
    conf.register_opts(host_opts)


def list_opts():
    return {'DEFAULT': host_opts}
