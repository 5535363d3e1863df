"""The compute API's microversions: the single place for their range and history.

History (each entry says what a client sees change; "not served" means the
version changes only resources or actions this service does not have, and is
accepted so that clients negotiating past it work):

* 2.1  - the base v2.1 API (``GET /os-migrations`` lists evacuations;
  ``/os-server-groups`` with the affinity and anti-affinity policies;
  ``/servers/{id}/os-instance-actions``, events for admins only).
* 2.2  - keypairs carry ``type`` (ssh or x509); keypair create answers 201
  and delete 204.
* 2.3  - admins see more extended server attributes (OS-EXT-SRV-ATTR:
  hostname, kernel_id, launch_index, ramdisk_id, reservation_id,
  root_device_name, user_data).
* 2.4  - 2.6: not served (consoles, volume attachments, ...).
* 2.7  - granting a project a public flavor (addTenantAccess) is 409.
* 2.8  - not served.
* 2.9  - servers carry ``locked``.
* 2.10 - an admin names another user's keypairs with ``user_id`` (in the
  create body, and the list, show and delete query).
* 2.11 - os-services gains ``forced_down`` and ``PUT /os-services/force-down``.
* 2.12 - not served.
* 2.13 - server groups carry ``project_id`` and ``user_id``.
* 2.14 - evacuate: ``onSharedStorage`` is gone from the request and
  ``adminPass`` from the response.
* 2.15 - server groups take the soft-affinity and soft-anti-affinity
  policies.
* 2.16 - ``GET /servers/{id}`` and ``GET /servers/detail`` carry
  ``host_status`` (UP, DOWN, MAINTENANCE, UNKNOWN or "") where policy allows.
* 2.17 - not served (the trigger_crash_dump action).
* 2.18 - the project id in URLs is optional (both forms were always routed).
* 2.19 - servers carry ``description``: set on create and by
  ``PUT /servers/{id}``, shown in show, detail and the update response.
* 2.20 - not served (volumes of shelved servers).
* 2.21 - the instance actions of deleted servers are shown.
* 2.22 - not served (live migration).
* 2.23 - ``GET /os-migrations`` carries ``migration_type`` (and ``links``
  only on in-progress live migrations, so never here; the server
  migrations resource is not served).
* 2.24 - 2.25: not served (live migration).
* 2.26 - server tags: ``/servers/{id}/tags[/{tag}]``, ``tags`` in show and
  detail, and the ``tags``, ``tags-any``, ``not-tags``, ``not-tags-any``
  list filters.
* 2.27 - the ``OpenStack-API-Version`` header form (both forms were always
  accepted).
* 2.28 - not served (hypervisors).
* 2.29 - evacuate takes ``force``; a given ``host`` is checked by the
  scheduler unless forced.
* 2.30 - 2.31: not served (live migration, consoles).
* 2.32 - server create accepts a ``tag`` on each ``networks`` item.
* 2.33 - 2.34: not served (hypervisors, live migration).
* 2.35 - the keypair list pages: ``limit``, ``marker`` and ``keypairs_links``.
* 2.36 - the proxy APIs answer 404 (this service never served them).
* 2.37 - server create requires ``networks``: ``auto``, ``none`` or a list,
  whose items no longer take a ``tag``.
* 2.38 - an unknown ``status`` filter on the server lists is 400.
* 2.39 - 2.40: not served (image metadata, usage).
* 2.41 - aggregates carry ``uuid``.
* 2.42 - ``networks`` items take a ``tag`` again.
* 2.43 - 2.46: not served (os-hosts, network proxies, createImage, request id
  headers, which this service always sends).
* 2.47 - show and detail embed the server's flavor (original_name, vcpus,
  ram, disk, ephemeral, swap, extra_specs) instead of its id and links.
* 2.48 - 2.50: not served (diagnostics, attach tags, quota classes).
* 2.51 - an instance action's events are shown to the server's readers,
  without ``traceback`` (external events are not served).
* 2.52 - server create accepts ``tags``.
* 2.53 - os-services are named by UUID: ``id`` is the UUID,
  ``PUT /os-services/{service_id}`` (status, disabled_reason, forced_down)
  and ``DELETE /os-services/{service_id}`` replace the action form.
* 2.54 - not served (rebuild's key_name).
* 2.55 - flavors carry ``description`` (null when unset) in list, detail and
  show; flavor create takes ``description``, ``PUT /flavors/{flavor_id}``
  updates it, and both responses carry it.
* 2.56 - not served (cold migration's host).
* 2.57 - server create no longer takes ``personality`` (rebuild and limits
  are not served).
* 2.58 - instance actions carry ``updated_at`` and page: ``limit``,
  ``marker`` (a request id), ``changes-since``, ``links``; other
  parameters are 400.
* 2.59 - ``GET /os-migrations`` carries ``uuid``, pages with ``limit`` and
  ``marker`` (a migration uuid), newest first, takes ``changes-since``, and
  answers 400 to unknown parameters.
* 2.60 - not served (multiattach volumes).
* 2.61 - flavor detail, show, create and update carry ``extra_specs`` where
  policy allows listing them.
* 2.62 - instance action events carry ``hostId`` (and ``host`` where
  policy shows the traceback).
* 2.63 - server create takes ``trusted_image_certificates``; show, detail
  and the update response carry it (null when none were given).
* 2.64 - server groups have one ``policy`` and ``rules``
  (``max_server_per_host``, anti-affinity only) instead of ``policies``
  and ``metadata``.
* 2.65 - not served (live migration abort).
* 2.66 - ``changes-before`` on the server lists, ``GET /os-migrations`` and
  the instance actions.
* 2.67 - server create's ``block_device_mapping_v2`` items take
  ``volume_type``.
* 2.68 - evacuate no longer takes ``force``.
* 2.69 - 2.70: not served (down cells, virtual device tags of volumes and
  interfaces).
* 2.71 - show and the update response carry ``server_groups`` (the uuid of
  the server's group, or ``[]``), detail does not.
* 2.72 - no change here (ports with resource requests at create: there is
  no network service).
* 2.73 - lock takes ``locked_reason``; servers carry ``locked_reason``; the
  server lists take the ``locked`` filter and ``sort_key=locked``.
"""
import functools
import re

MIN_VERSION = '2.1'
MAX_VERSION = '2.73'

KEYPAIR_TYPE = '2.2'
EXTENDED_ATTRIBUTES_MORE = '2.3'
FLAVOR_ACCESS_PUBLIC_CONFLICT = '2.7'
LOCKED = '2.9'
KEYPAIR_USER_ID = '2.10'
SERVICE_FORCE_DOWN = '2.11'
SERVER_GROUP_PROJECT = '2.13'
EVACUATE_NO_SHARED_STORAGE = '2.14'
SOFT_AFFINITY = '2.15'
HOST_STATUS = '2.16'
SERVER_DESCRIPTION = '2.19'
DELETED_SERVER_ACTIONS = '2.21'
MIGRATION_TYPE = '2.23'
SERVER_TAGS = '2.26'
EVACUATE_FORCE = '2.29'
NETWORK_TAGS = '2.32'
KEYPAIR_PAGING = '2.35'
NETWORKS_REQUIRED = '2.37'
STATUS_FILTER_STRICT = '2.38'
AGGREGATE_UUID = '2.41'
NETWORK_TAGS_RESTORED = '2.42'
EMBEDDED_FLAVOR = '2.47'
ACTION_EVENTS_FOR_READERS = '2.51'
TAGS_ON_CREATE = '2.52'
SERVICE_UUIDS = '2.53'
FLAVOR_DESCRIPTION = '2.55'
NO_PERSONALITY = '2.57'
ACTIONS_PAGING = '2.58'
MIGRATIONS_PAGING = '2.59'
FLAVOR_EXTRA_SPECS = '2.61'
ACTION_EVENT_HOSTS = '2.62'
TRUSTED_CERTS = '2.63'
GROUP_POLICY_RULES = '2.64'
CHANGES_BEFORE = '2.66'
BDM_VOLUME_TYPE = '2.67'
EVACUATE_NO_FORCE = '2.68'
SERVER_GROUPS = '2.71'
LOCKED_REASON = '2.73'

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
