from oslo_config import cfg

servicegroup_group = cfg.OptGroup('servicegroup', title='Service liveness options')

servicegroup_opts = [
    cfg.StrOpt('driver', default='db',
               choices=[('db', 'heartbeats are UPDATEs of the services table; the SQL '
                               'database judges liveness on its own clock'),
                        ('lease', 'heartbeats renew a per-host lease on the Redis or '
                                  'etcd of backend_url, which expires a silent compute on '
                                  'its own clock; the SQL database receives no heartbeat'),
                        ('tooz', 'the former name of lease, kept for existing configs')],
               help='Where heartbeats are written and liveness is read. Set it the same '
                    'on every API and compute host.'),
    cfg.StrOpt('backend_url', secret=True,
               help='With driver = lease: the URL of the liveness backend (tooz\'s form), '
                    'redis://[:PASSWORD@]HOST:PORT[?socket_timeout=S] (with '
                    'sentinel=NAME&sentinel_fallback=HOST:PORT for Redis Sentinel) or '
                    'etcd3+http://HOST:PORT[?timeout=S][&endpoints=HOST:PORT,...] '
                    '(etcd3+https too; endpoints: the other cluster members). The '
                    'membership timeout is service_down_time: a URL that sets '
                    'membership_timeout to anything else is refused at start. '
                    'socket_timeout (Redis) or timeout (etcd, whole seconds) bounds '
                    'each backend request, and so how long a hung backend can hold an '
                    'API request; 2 s when the URL sets none.'),
    cfg.BoolOpt('tooz_also_db_heartbeat', default=False,
                help='With driver = lease, nova-compute also writes the db driver\'s '
                     'heartbeat (an UPDATE of its services row) every report_interval, '
                     'so API hosts still on driver = db judge it correctly. Only for '
                     'switching a running cloud between db and lease (operator guide, '
                     '"Liveness backends"); leave it off otherwise.'),
]


def register_opts(conf):
    conf.register_group(servicegroup_group)
    conf.register_opts(servicegroup_opts, group=servicegroup_group)


def list_opts():
    return {servicegroup_group: servicegroup_opts}
