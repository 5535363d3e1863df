from oslo_config import cfg

api_group = cfg.OptGroup('api', title='Compute API options')

api_opts = [
    cfg.StrOpt('auth_strategy', default='noauth2', choices=['noauth2', 'keystone'],
               help='noauth2 trusts tokens of the form user:project (user "admin" is '
                    'an admin); keystone puts keystonemiddleware auth_token in front.'),
    cfg.BoolOpt('allow_noauth2_on_public_address', default=False,
                help='noauth2 trusts anyone; the API refuses to listen on a '
                     'non-loopback address with it unless this is set.'),
    cfg.IntOpt('max_limit', default=1000, min=1,
               help='Largest number of items one page of a collection returns.'),
    cfg.IntOpt('max_servers_per_request', default=100, min=1,
               help='Largest max_count one create request may ask for; there are '
                    'no quotas, so this bounds what one request can create.'),
    cfg.StrOpt('bind_host', default='127.0.0.1', help='Address the API listens on.'),
    cfg.PortOpt('bind_port', default=8774, help='Port the API listens on.'),
    cfg.HostAddressOpt('metrics_host', default='127.0.0.1',
                       help='Address the Prometheus metrics of the API (requests by '
                            'route, method and status) are served on, by the nova-api '
                            'master process for all its workers; never the API port.'),
    cfg.PortOpt('metrics_port', default=0,
                help='Port of the API metrics; 0 serves none. A port that is '
                     'taken stops nova-api at start.'),
    cfg.StrOpt('server', default='uwsgi', choices=['uwsgi', 'gunicorn'],
               help='The WSGI server of nova-api: uwsgi (pyuwsgi, HTTP/1.1 spoken by '
                    'its workers, the fastest measured: benchmarks/README.rst) or '
                    'gunicorn (gthread workers). Both keep the same limits (413, 414, '
                    '431), graceful stop and metrics.'),
    cfg.IntOpt('workers', default=2, min=1, help='Number of API worker processes.'),
    cfg.BoolOpt('keep_alive', default=True,
                help='Under uWSGI: keep a client\'s connection open between its '
                     'requests (HTTP/1.1 keep-alive). An idle kept-alive connection '
                     'holds a worker thread for up to 4 s (uWSGI\'s socket timeout); '
                     'false closes every connection after its answer, which costs '
                     'uWSGI about nothing (benchmarks/README.rst, "Serving modes") '
                     'and the client a new connection per request.'),
    cfg.IntOpt('graceful_timeout', default=5, min=1,
               help='Seconds a stopping nova-api (SIGTERM) gives its workers to '
                    'finish the requests they are serving.'),
    cfg.IntOpt('threads', default=8, min=2,
               help='Threads of each API worker (uWSGI or gunicorn gthread): a long poll of '
                    'the host status events feed holds one while it waits.'),
    cfg.FloatOpt('max_long_poll', default=25, min=0, max=25,
                 help='Longest wait of a long poll of /os-host-status-events, in '
                      'seconds; a longer ``wait`` is cut to it.'),
    cfg.IntOpt('max_waits_per_project', default=2, min=0,
               help='Long polls of /os-host-status-events one project may have '
                    'waiting at once in one API worker; one more answers 429. A '
                    'worker never lets waits take more than half its threads.'),
]


def register_opts(conf):
    conf.register_group(api_group)
    conf.register_opts(api_opts, group=api_group)


def list_opts():
    return {api_group: api_opts}
