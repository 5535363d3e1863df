"""[servicegroup] backend_url, checked and completed for the tooz driver.

service_down_time is the one liveness knob for every driver, so the
membership timeout the backend enforces is always service_down_time: a URL
that names another one is refused rather than silently overridden. Every
backend request gets a bounded timeout (tooz's own default is 30 s), which
is also how long the API waits for one liveness read.
"""
import dataclasses
import urllib.parse

DEFAULT_TIMEOUT = 2

# scheme -> the URL option that bounds one request of tooz's client for it
_TIMEOUT_OPTION = {
    'redis': 'socket_timeout',
    'etcd3+http': 'timeout',
    'etcd3+https': 'timeout',
}


class InvalidBackendURL(ValueError):
    """backend_url cannot be used as it is; the message says why."""


@dataclasses.dataclass(frozen=True)
class Backend:
    url: str            # what tooz is given
    kind: str           # 'redis' or 'etcd'
    timeout: float      # seconds one request (and one API liveness read) may take

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
            '[servicegroup] driver = tooz needs [servicegroup] backend_url, e.g. '
            'redis://127.0.0.1:6379 or etcd3+http://127.0.0.1:2379')
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _TIMEOUT_OPTION:
        raise InvalidBackendURL(
            '[servicegroup] backend_url scheme %r is not supported; use one of %s'
            % (parts.scheme, ', '.join(sorted(_TIMEOUT_OPTION))))
    options = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
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
    complete = parts._replace(query=urllib.parse.urlencode(options))
    return Backend(url=urllib.parse.urlunsplit(complete),
                   kind='redis' if scheme == 'redis' else 'etcd',
                   timeout=timeout)


def _number(value, name):
    try:
        return float(value)
    except ValueError:
        raise InvalidBackendURL('[servicegroup] backend_url %s=%r is not a number'
                                % (name, value)) from None
