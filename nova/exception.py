"""What can go wrong below the API, in words and kinds, never in HTTP.

compute/, servicegroup/, db/ and policy raise these; nova/api/openstack/faults
maps each kind (NotFound, Invalid, Forbidden, Conflict, ServiceUnavailable)
to Nova's fault body in one place. A subclass names the case and its
message format; the keyword arguments fill it in.
"""


class NovaException(Exception):
    msg_fmt = 'An unknown exception occurred.'

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        super().__init__(message if message is not None else self.msg_fmt % kwargs)

    @property
    def message(self):
        return self.args[0]


# ------------------------------------------------------------------ kinds

class NotFound(NovaException):
    msg_fmt = 'The resource could not be found.'


class Invalid(NovaException):
    msg_fmt = 'Unacceptable parameters.'


class Forbidden(NovaException):
    msg_fmt = 'Forbidden.'


class Conflict(NovaException):
    msg_fmt = 'There was a conflict when trying to complete your request.'


class ServiceUnavailable(NovaException):
    msg_fmt = 'The service is unavailable; try again shortly.'


# ------------------------------------------------------------------ cases

class InstanceNotFound(NotFound):
    msg_fmt = 'Instance %(instance_id)s could not be found.'


class FlavorNotFound(NotFound):
    msg_fmt = 'Flavor %(flavor_id)s could not be found.'


class ServiceNotFound(NotFound):
    msg_fmt = 'Service %(service_id)s could not be found.'


class HostNotMapped(NotFound):
    # what Nova answers for a host without a live service row
    msg_fmt = "Host '%(name)s' is not mapped to any cell"


class ServiceHostsInstances(Conflict):
    msg_fmt = ('Unable to delete compute service that is hosting instances. '
               'Migrate or delete the instances first.')


class InvalidInput(Invalid):
    msg_fmt = '%(reason)s'


class MarkerNotFound(Invalid):
    msg_fmt = 'marker [%(marker)s] not found'


class MigrationMarkerNotFound(Invalid):
    msg_fmt = 'Marker %(marker)s could not be found.'


class AvailabilityZoneNotAvailable(Invalid):
    msg_fmt = 'The requested availability zone is not available'


class PolicyNotAuthorized(Forbidden):
    msg_fmt = "Policy doesn't allow %(action)s to be performed."


class InstanceLocked(Conflict):
    msg_fmt = 'Instance %(instance_uuid)s is locked'


class ServiceGroupUnavailable(ServiceUnavailable):
    msg_fmt = 'Service liveness cannot be read right now; try again shortly.'

    def __init__(self, message=None, hosts_up=(), **kwargs):
        # hosts_up: the hosts asked about that are known alive all the
        # same; only the others' liveness cannot be read (a backend that
        # restarted a moment ago knows who has beaten since, not who has
        # died), so a host reads the same whichever others share its batch
        super().__init__(message, **kwargs)
        self.hosts_up = frozenset(hosts_up)


class ComputeHostNotFound(NotFound):
    msg_fmt = 'Compute host %(host)s could not be found.'


class MaintenanceWindowNotFound(NotFound):
    msg_fmt = 'Maintenance window %(window_id)s could not be found.'


class InvalidMaintenanceWindow(Invalid):
    msg_fmt = 'Invalid maintenance window: %(reason)s'


class MaintenanceWindowOverlap(Conflict):
    msg_fmt = ('The window overlaps maintenance window %(other)s of host %(host)s; '
               'windows of one host may not overlap.')


class MaintenanceWindowNotEditable(Conflict):
    msg_fmt = 'Maintenance window %(window_id)s is %(state)s: %(what)s.'


class InstanceTagNotFound(NotFound):
    msg_fmt = "Instance %(instance_id)s has no tag '%(tag)s'"


class TooManyInstanceTags(Invalid):
    msg_fmt = 'The number of tags exceeded the per-server limit %(limit)d'


class InstanceMappingNotFound(NotFound):
    # what Nova answers for an unknown server's tags
    msg_fmt = 'Instance %(uuid)s has no mapping to a cell.'


class InstanceInvalidState(Conflict):
    """``attr`` (vm_state, task_state or launched_at) of the server forbids
    ``action`` (the name the API gives it); worded as Nova's API words it."""
    msg_fmt = "Cannot '%(action)s' instance %(instance_uuid)s while it is in %(attr)s %(state)s"


class InstanceNotReady(Conflict):
    msg_fmt = 'Instance %(instance_id)s is not ready'


class ComputeServiceInUse(Invalid):
    msg_fmt = 'Compute service of %(host)s is still in use.'


class ServiceHasMigrationsInProgress(Conflict):
    msg_fmt = ('Unable to delete compute service that has in-progress migrations. '
               'Complete the migrations or delete the instances first.')


class ForceUpWithDoneEvacuations(Invalid):
    msg_fmt = ('Unable to force up host %(host)s as `done` evacuation migration records '
               'remain associated with the host. Ensure the compute service has been '
               'restarted, allowing these records to move to `completed` before retrying '
               'this request.')


class ForceUpWithOpenEvacuations(Invalid):
    """Beyond Nova (doc/source/differences.rst): an evacuation away from the
    host not finished yet keeps it forced down too."""
    msg_fmt = ('Unable to force up host %(host)s as evacuation migration records that are '
               'still in progress remain associated with the host. Wait for them to end, '
               'or reset the state of their servers, before retrying this request.')


class FlavorExtraSpecsNotFound(NotFound):
    msg_fmt = 'Flavor %(flavor_id)s has no extra specs with key %(extra_specs_key)s.'


class AggregateNotFound(NotFound):
    msg_fmt = 'Aggregate %(aggregate_id)s could not be found.'


class AggregateNameExists(Conflict):
    msg_fmt = 'Aggregate %(aggregate_name)s already exists.'


class AggregateHostExists(Conflict):
    msg_fmt = 'Aggregate %(aggregate_id)s already has host %(host)s.'


class AggregateHostNotRemoved(NotFound):
    """The host, the aggregate, or the host in the aggregate is not there:
    Nova answers each alike."""
    msg_fmt = 'Cannot remove host %(host)s in aggregate %(aggregate_id)s'


class InvalidAggregateActionAdd(Conflict):
    msg_fmt = 'Cannot add host to aggregate %(aggregate_id)s. Reason: %(reason)s.'


class InvalidAggregateActionDelete(Invalid):
    msg_fmt = 'Cannot remove host from aggregate %(aggregate_id)s. Reason: %(reason)s.'


class InvalidAggregateActionRemoveHost(Conflict):
    """A host's removal refused: Nova words it as a delete's, answers 409."""
    msg_fmt = InvalidAggregateActionDelete.msg_fmt


class InvalidAggregateActionUpdate(Invalid):
    msg_fmt = 'Cannot update aggregate %(aggregate_id)s. Reason: %(reason)s.'


class InvalidAggregateActionUpdateMeta(Invalid):
    msg_fmt = 'Cannot update metadata of aggregate %(aggregate_id)s. Reason: %(reason)s.'
class FlavorExists(Conflict):
    msg_fmt = 'Flavor with name %(name)s already exists.'


class FlavorIdExists(Conflict):
    msg_fmt = 'Flavor with ID %(flavor_id)s already exists.'


class FlavorAccessExists(Conflict):
    # ``flavor_id``: the flavor's primary key, as Nova words it
    msg_fmt = ('Flavor access already exists for flavor %(flavor_id)s and project '
               '%(project_id)s combination.')


class FlavorAccessNotFound(NotFound):
    msg_fmt = 'Flavor access not found for %(flavor_id)s / %(project_id)s combination.'


class KeypairNotFound(NotFound):
    msg_fmt = 'Keypair %(name)s not found for user %(user_id)s'


class KeyPairExists(Conflict):
    msg_fmt = "Key pair '%(key_name)s' already exists."


class InvalidKeypair(Invalid):
    msg_fmt = 'Keypair data is invalid: %(reason)s'


class InstanceGroupNotFound(NotFound):
    msg_fmt = 'Instance group %(group_uuid)s could not be found.'


class ServerGroupQuotaExceeded(Forbidden):
    msg_fmt = 'Quota exceeded, too many server groups.'


class ServerGroupMembersQuotaExceeded(Forbidden):
    msg_fmt = 'Quota exceeded, too many servers in group'


class InstanceActionNotFound(NotFound):
    msg_fmt = 'Action %(request_id)s not found'


class InstanceActionMarkerNotFound(Invalid):
    msg_fmt = 'Marker %(marker)s could not be found.'
