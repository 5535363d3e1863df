from oslo_config import cfg

servicegroup_group = cfg.OptGroup('servicegroup', title='Service liveness options')

servicegroup_opts = [
    cfg.StrOpt('driver', default='db', choices=['db'],
               help='Where heartbeats are written and liveness is read.'),
]


def register_opts(conf):
    conf.register_group(servicegroup_group)
    conf.register_opts(servicegroup_opts, group=servicegroup_group)


def list_opts():
    return {servicegroup_group: servicegroup_opts}
