"""The compute API's microversions: the single place for their range and history.

History (each entry says what a client sees change):

* 2.1  - the base v2.1 API.
* 2.2  - 2.8: changes to resources this service does not serve; accepted
  so clients negotiating up to 2.16 work.
* 2.3  - admins see more extended server attributes (OS-EXT-SRV-ATTR:
  hostname, kernel_id, launch_index, ramdisk_id, reservation_id,
  root_device_name, user_data).
* 2.9  - servers carry ``locked``.
* 2.10 - changes to resources this service does not serve.
* 2.11 - os-services gains ``forced_down`` and ``PUT /os-services/force-down``.
* 2.12 - 2.15: changes to resources this service does not serve.
* 2.16 - ``GET /servers/{id}`` and ``GET /servers/detail`` carry
  ``host_status`` (UP, DOWN, MAINTENANCE, UNKNOWN or "") where policy allows.
"""
import functools
import re

MIN_VERSION = '2.1'
MAX_VERSION = '2.16'

EXTENDED_ATTRIBUTES_MORE = '2.3'
LOCKED = '2.9'
SERVICE_FORCE_DOWN = '2.11'
HOST_STATUS = '2.16'

_FORMAT = re.compile(r'^([1-9]\d*)\.([1-9]\d*|0)$')


class InvalidFormat(ValueError):
    def __init__(self, text):
        super().__init__('API Version String %s is of invalid format. Must be of '
                         'format MajorNum.MinorNum.' % text)


@functools.total_ordering
class APIVersionRequest:
    __slots__ = ('major', 'minor')

    def __init__(self, text):
        match = _FORMAT.match(text)
        if not match:
            raise InvalidFormat(text)
        self.major, self.minor = int(match.group(1)), int(match.group(2))

    def _key(self):
        return (self.major, self.minor)

    def __eq__(self, other):
        if isinstance(other, str):
            other = APIVersionRequest(other)
        return self._key() == other._key()

    def __lt__(self, other):
        if isinstance(other, str):
            other = APIVersionRequest(other)
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return '%d.%d' % (self.major, self.minor)

    __repr__ = __str__

    def at_least(self, version):
        return self._key() >= _parse_cached(version)._key()

    def supported(self):
        return _MIN <= self <= _MAX


@functools.lru_cache(maxsize=64)
def _parse_cached(text):
    return APIVersionRequest(text)


_MIN = APIVersionRequest(MIN_VERSION)
_MAX = APIVersionRequest(MAX_VERSION)


def min_version():
    return _MIN


def max_version():
    return _MAX


def unsupported_message(version):
    return ('Version %s is not supported by the API. Minimum is %s and maximum is %s.'
            % (version, MIN_VERSION, MAX_VERSION))
