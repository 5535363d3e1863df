"""[servicegroup] backend_url, checked and completed for the lease driver.

service_down_time is the one liveness knob for every driver, so the
membership timeout the backend enforces is always service_down_time: a URL
that names another one is refused rather than silently overridden. Every
backend request gets a bounded timeout (2 s unless the URL says), which is
also how long the API waits for one liveness read.

The URLs are tooz's (the driver's first backend client), so configs written
for it keep working:

- ``redis://[:PASSWORD@]HOST:PORT[?socket_timeout=S][&db=N]``; with
  ``sentinel=NAME`` HOST:PORT is a Sentinel, and each ``sentinel_fallback=
  HOST:PORT`` another one, which the client asks for the primary of NAME.
- ``etcd3+http://HOST:PORT[?timeout=S]`` (etcd3+https too); each
  ``endpoints=HOST:PORT[,HOST:PORT]`` names another member of the cluster,
  tried in turn when one does not answer.
"""
import dataclasses
import urllib.parse

DEFAULT_TIMEOUT = 2

# scheme -> the URL option that bounds one request
_TIMEOUT_OPTION = {
    'redis': 'socket_timeout',
    'etcd3+http': 'timeout',
    'etcd3+https': 'timeout',
}


class InvalidBackendURL(ValueError):
    """backend_url cannot be used as it is; the message says why."""


@dataclasses.dataclass(frozen=True)
class Backend:
    url: str            # the URL completed (membership_timeout, its timeout)
    kind: str           # 'redis' or 'etcd'
    timeout: float      # seconds one request (and one API liveness read) may take
    membership_timeout: int = 60    # service_down_time
    # (host, port) of every server to try, the URL's own first: Redis's
    # Sentinels with a sentinel name, else the one Redis; etcd's members
    endpoints: tuple = ()
    sentinel: str = None
    password: str = dataclasses.field(default=None, repr=False)
    db: int = 0
    tls: bool = False

    def __str__(self):
        # for logs: never the password
        parts = urllib.parse.urlsplit(self.url)
        netloc = parts.hostname or ''
        if parts.port:
            netloc += ':%d' % parts.port
        return '%s://%s' % (parts.scheme, netloc)


def parse(url, service_down_time):
    """The Backend for ``url``; raises InvalidBackendURL."""
    if not url:
        raise InvalidBackendURL(
            '[servicegroup] driver = lease needs [servicegroup] backend_url, e.g. '
            'redis://127.0.0.1:6379 or etcd3+http://127.0.0.1:2379')
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _TIMEOUT_OPTION:
        raise InvalidBackendURL(
            '[servicegroup] backend_url scheme %r is not supported; use one of %s'
            % (parts.scheme, ', '.join(sorted(_TIMEOUT_OPTION))))
    pairs = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    options = dict(pairs)
    given = options.get('membership_timeout')
    if given is not None and _number(given, 'membership_timeout') != service_down_time:
        raise InvalidBackendURL(
            '[servicegroup] backend_url sets membership_timeout=%s but liveness follows '
            '[DEFAULT] service_down_time (%d s) on every driver: remove it from the URL '
            'or change service_down_time' % (given, service_down_time))
    options['membership_timeout'] = str(service_down_time)
    timeout_option = _TIMEOUT_OPTION[scheme]
    if timeout_option not in options and scheme == 'redis' and 'timeout' in options:
        options[timeout_option] = options['timeout']   # tooz's redis default for it
    timeout = _number(options.setdefault(timeout_option, str(DEFAULT_TIMEOUT)),
                      timeout_option)
    if scheme != 'redis' and timeout != int(timeout):
        raise InvalidBackendURL('[servicegroup] backend_url timeout=%s: the etcd client '
                                'takes whole seconds' % options[timeout_option])
    if timeout <= 0:
        raise InvalidBackendURL('[servicegroup] backend_url %s must be positive'
                                % timeout_option)
    redis = scheme == 'redis'
    first = (parts.hostname or '127.0.0.1', _port(parts, 6379 if redis else 2379))
    others = [value for name, value in pairs
              if name == ('sentinel_fallback' if redis else 'endpoints')]
    endpoints = (first,) + tuple(_address(item) for value in others
                                 for item in value.split(',') if item)
    if redis and 'sentinel' not in options and len(endpoints) > 1:
        raise InvalidBackendURL('[servicegroup] backend_url sentinel_fallback needs '
                                'sentinel=NAME (the name of the primary)')
    complete = parts._replace(query=urllib.parse.urlencode(options))
    return Backend(url=urllib.parse.urlunsplit(complete),
                   kind='redis' if redis else 'etcd', timeout=timeout,
                   membership_timeout=service_down_time,
                   endpoints=endpoints, sentinel=options.get('sentinel') or None,
                   password=(urllib.parse.unquote(parts.password) if parts.password
                             else options.get('password') or None),
                   db=int(_number(options.get('db', '0'), 'db')),
                   tls=scheme == 'etcd3+https' or options.get('ssl') in ('1', 'true', 'True'))


def _port(parts, default):
    try:
        return parts.port or default
    except ValueError:
        raise InvalidBackendURL('[servicegroup] backend_url has a port that is not a '
                                'number') from None


def _address(text):
    host, _, port = text.strip().rpartition(':')
    if not host or not port.isdigit():
        raise InvalidBackendURL('[servicegroup] backend_url endpoint %r is not HOST:PORT'
                                % text)
    return host.strip('[]'), int(port)


def _number(value, name):
    try:
        return float(value)
    except ValueError:
        raise InvalidBackendURL('[servicegroup] backend_url %s=%r is not a number'
                                % (name, value)) from None
