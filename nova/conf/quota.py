from oslo_config import cfg

quota_group = cfg.OptGroup('quota', title="Nova's quotas that this service enforces")

quota_opts = [
    cfg.IntOpt('server_groups', default=10, min=-1,
               help='Server groups a project may have; -1 is no limit (Nova\'s option '
                    'and default).'),
    cfg.IntOpt('server_group_members', default=10, min=-1,
               help='Servers one server group may hold; -1 is no limit (Nova\'s option '
                    'and default).'),
]


def register_opts(conf):
    conf.register_group(quota_group)
    conf.register_opts(quota_opts, group=quota_group)


def list_opts():
    return {quota_group: quota_opts}
