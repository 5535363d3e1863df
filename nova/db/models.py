"""The tables, as SQLAlchemy Core/declarative models.

Rows are soft-deleted: ``deleted`` is 0 while live and the row's id once
deleted, so unique constraints can include it.
"""
import sqlalchemy as sa
from sqlalchemy import orm

from nova.db.types import Timestamp

# the binary of the compute services: the hosts that run servers
COMPUTE_BINARY = 'nova-compute'


class Base(orm.DeclarativeBase):
    pass


class _Timestamps:
    created_at = sa.Column(Timestamp, nullable=True)
    updated_at = sa.Column(Timestamp, nullable=True)
    deleted_at = sa.Column(Timestamp, nullable=True)
    deleted = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')


class Service(_Timestamps, Base):
    __tablename__ = 'services'
    __table_args__ = (
        sa.UniqueConstraint('host', 'binary', 'deleted', name='uniq_services0host0binary0deleted'),
        sa.UniqueConstraint('uuid', name='uniq_services0uuid'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    host = sa.Column(sa.String(255), nullable=False)
    binary = sa.Column(sa.String(255), nullable=False)
    topic = sa.Column(sa.String(255), nullable=True)
    report_count = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')
    disabled = sa.Column(sa.Boolean, nullable=False, default=False, server_default=sa.false())
    disabled_reason = sa.Column(sa.String(255), nullable=True)
    forced_down = sa.Column(sa.Boolean, nullable=False, default=False, server_default=sa.false())
    last_seen_up = sa.Column(Timestamp, nullable=True)


class Instance(_Timestamps, Base):
    __tablename__ = 'instances'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_instances0uuid'),
        # list pages: default sort (created_at desc, id desc) per project
        sa.Index('instances_project_deleted_created_idx', 'project_id', 'deleted', 'created_at', 'id'),
        sa.Index('instances_deleted_created_idx', 'deleted', 'created_at', 'id'),
        # nova-compute's work poll and the scheduler's load count
        sa.Index('instances_host_deleted_task_idx', 'host', 'deleted', 'task_state'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    display_name = sa.Column(sa.String(255), nullable=True)
    hostname = sa.Column(sa.String(255), nullable=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=False)
    host = sa.Column(sa.String(255), nullable=True)
    node = sa.Column(sa.String(255), nullable=True)
    availability_zone = sa.Column(sa.String(255), nullable=True)
    vm_state = sa.Column(sa.String(255), nullable=True)
    task_state = sa.Column(sa.String(255), nullable=True)
    power_state = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')
    progress = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')
    image_ref = sa.Column(sa.String(255), nullable=True)
    flavor_id = sa.Column(sa.String(255), nullable=False)
    key_name = sa.Column(sa.String(255), nullable=True)
    user_data = sa.Column(sa.Text, nullable=True)
    config_drive = sa.Column(sa.String(255), nullable=False, default='', server_default='')
    disk_config = sa.Column(sa.String(16), nullable=False, default='MANUAL', server_default='MANUAL')
    access_ip_v4 = sa.Column(sa.String(39), nullable=True)
    access_ip_v6 = sa.Column(sa.String(39), nullable=True)
    reservation_id = sa.Column(sa.String(255), nullable=False)
    launch_index = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')
    kernel_id = sa.Column(sa.String(255), nullable=True)
    ramdisk_id = sa.Column(sa.String(255), nullable=True)
    root_device_name = sa.Column(sa.String(255), nullable=True)
    launched_at = sa.Column(Timestamp, nullable=True)
    terminated_at = sa.Column(Timestamp, nullable=True)
    locked = sa.Column(sa.Boolean, nullable=False, default=False, server_default=sa.false())
    locked_by = sa.Column(sa.String(16), nullable=True)   # 'owner' or 'admin', as Nova
    locked_reason = sa.Column(sa.String(255), nullable=True)   # 2.73; None when unlocked
    trusted_certs = sa.Column(sa.Text, nullable=True)   # 2.63: a JSON list of ids, or None
    # JSON text: kept in the row so a page of servers is one query.
    metadata_json = sa.Column('metadata', sa.Text, nullable=False, default='{}', server_default='{}')
    security_groups_json = sa.Column('security_groups', sa.Text, nullable=True)
    display_description = sa.Column(sa.Text, nullable=True)
    # the server's tags, sorted and joined by ',' (no tag has one), or NULL:
    # instance_tags in the row, so a page of servers is one query; written
    # in the transaction that writes instance_tags (db/api.py)
    tags_text = sa.Column('tags', sa.Text, nullable=True)
    # the flavor as it was at create (2.47 embeds it): NULL only for a
    # server whose flavor was gone when the copy was made
    flavor_name = sa.Column(sa.String(255), nullable=True)
    memory_mb = sa.Column(sa.Integer, nullable=True)
    vcpus = sa.Column(sa.Integer, nullable=True)
    root_gb = sa.Column(sa.Integer, nullable=True)
    ephemeral_gb = sa.Column(sa.Integer, nullable=True)
    swap = sa.Column(sa.Integer, nullable=True)
    # the flavor's extra specs at create, as JSON text (NULL: none)
    flavor_extra_specs = sa.Column(sa.Text, nullable=True)


class InstanceTag(Base):
    """A server's tag (2.26); tags go with the server's uuid."""
    __tablename__ = 'instance_tags'
    __table_args__ = (
        sa.Index('instance_tags_tag_idx', 'tag'),
    )

    resource_id = sa.Column(sa.String(36), primary_key=True)
    tag = sa.Column(sa.String(80), primary_key=True)


class InstanceFault(_Timestamps, Base):
    __tablename__ = 'instance_faults'
    __table_args__ = (
        sa.Index('instance_faults_instance_uuid_id_idx', 'instance_uuid', 'id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    instance_uuid = sa.Column(sa.String(36), nullable=False)
    code = sa.Column(sa.Integer, nullable=False)
    message = sa.Column(sa.String(255), nullable=True)
    details = sa.Column(sa.Text, nullable=True)
    host = sa.Column(sa.String(255), nullable=True)


class Flavor(Base):
    __tablename__ = 'flavors'
    __table_args__ = (
        sa.UniqueConstraint('flavorid', name='uniq_flavors0flavorid'),
        sa.UniqueConstraint('name', name='uniq_flavors0name'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    flavorid = sa.Column(sa.String(255), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    memory_mb = sa.Column(sa.Integer, nullable=False)
    vcpus = sa.Column(sa.Integer, nullable=False)
    root_gb = sa.Column(sa.Integer, nullable=False)
    ephemeral_gb = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')
    swap = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')
    rxtx_factor = sa.Column(sa.Float, nullable=False, default=1.0, server_default='1')
    is_public = sa.Column(sa.Boolean, nullable=False, default=True, server_default=sa.true())
    disabled = sa.Column(sa.Boolean, nullable=False, default=False, server_default=sa.false())
    description = sa.Column(sa.Text, nullable=True)   # 2.55


class FlavorExtraSpec(Base):
    """One key of a flavor's extra specs (/flavors/{id}/os-extra_specs);
    goes with its flavor."""
    __tablename__ = 'flavor_extra_specs'
    __table_args__ = (
        sa.UniqueConstraint('flavor_id', 'key', name='uniq_flavor_extra_specs0flavor_id0key'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    flavor_id = sa.Column(sa.Integer, sa.ForeignKey('flavors.id', ondelete='CASCADE'),
                          nullable=False)
    key = sa.Column(sa.String(255), nullable=False)
    value = sa.Column(sa.String(255), nullable=False)


class Aggregate(Base):
    """A host aggregate (os-aggregates). Deleted for good, as Nova's API
    database does, so a name is free again once its aggregate is gone."""
    __tablename__ = 'aggregates'
    __table_args__ = (
        sa.UniqueConstraint('name', name='uniq_aggregates0name'),
        sa.UniqueConstraint('uuid', name='uniq_aggregates0uuid'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    created_at = sa.Column(Timestamp, nullable=False)
    updated_at = sa.Column(Timestamp, nullable=True)


class AggregateHost(Base):
    """A host's membership of an aggregate; ``id`` keeps the order hosts
    were added in."""
    __tablename__ = 'aggregate_hosts'
    __table_args__ = (
        sa.UniqueConstraint('aggregate_id', 'host', name='uniq_aggregate_hosts0aggregate_id0host'),
        # a host's aggregates (the availability-zone rules)
        sa.Index('aggregate_hosts_host_idx', 'host'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    aggregate_id = sa.Column(sa.Integer, sa.ForeignKey('aggregates.id', ondelete='CASCADE'),
                             nullable=False)
    host = sa.Column(sa.String(255), nullable=False)


class AggregateMetadata(Base):
    """One key of an aggregate's metadata; ``availability_zone`` is the
    aggregate's availability zone."""
    __tablename__ = 'aggregate_metadata'
    __table_args__ = (
        sa.UniqueConstraint('aggregate_id', 'key', name='uniq_aggregate_metadata0aggregate_id0key'),
        # the aggregates of an availability zone
        sa.Index('aggregate_metadata_key_value_idx', 'key', 'value'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    aggregate_id = sa.Column(sa.Integer, sa.ForeignKey('aggregates.id', ondelete='CASCADE'),
                             nullable=False)
    key = sa.Column(sa.String(255), nullable=False)
    value = sa.Column(sa.String(255), nullable=False)


class FlavorProject(Base):
    """A project granted a private flavor (os-flavor-access); the grant goes
    with its flavor."""
    __tablename__ = 'flavor_projects'
    __table_args__ = (
        sa.UniqueConstraint('flavor_id', 'project_id',
                            name='uniq_flavor_projects0flavor_id0project_id'),
        # the flavor lists' "granted to the caller's project" clause
        sa.Index('flavor_projects_project_id_idx', 'project_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    flavor_id = sa.Column(sa.Integer, sa.ForeignKey('flavors.id', ondelete='CASCADE'),
                          nullable=False)
    project_id = sa.Column(sa.String(255), nullable=False)


class KeyPair(Base):
    """A user's public key (os-keypairs); a generated pair's private half is
    never stored."""
    __tablename__ = 'key_pairs'
    __table_args__ = (
        sa.UniqueConstraint('user_id', 'name', name='uniq_key_pairs0user_id0name'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    user_id = sa.Column(sa.String(255), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    fingerprint = sa.Column(sa.String(255), nullable=False)
    public_key = sa.Column(sa.Text, nullable=False)
    type = sa.Column(sa.String(8), nullable=False, default='ssh', server_default='ssh')
    created_at = sa.Column(Timestamp, nullable=False)


class Migration(_Timestamps, Base):
    """One move of a server between hosts (evacuations for now): the
    tombstone a source compute that comes back reads to destroy what it
    no longer owns, and the work item of the destination compute."""
    __tablename__ = 'migrations'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_migrations0uuid'),
        # at most one open evacuation per server, whoever asks
        sa.UniqueConstraint('open_instance_uuid', name='uniq_migrations0open_instance_uuid'),
        # the source's clean-up and the destination's work poll
        sa.Index('migrations_source_status_idx', 'source_compute', 'status'),
        sa.Index('migrations_dest_status_idx', 'dest_compute', 'status'),
        sa.Index('migrations_instance_uuid_idx', 'instance_uuid'),
        # the watcher's look for finished moves it has not announced yet
        sa.Index('migrations_host_status_event_idx', 'host_status_event_id', 'status'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    instance_uuid = sa.Column(sa.String(36), nullable=False)
    migration_type = sa.Column(sa.String(16), nullable=False)
    source_compute = sa.Column(sa.String(255), nullable=True)
    source_node = sa.Column(sa.String(255), nullable=True)
    dest_compute = sa.Column(sa.String(255), nullable=True)
    dest_node = sa.Column(sa.String(255), nullable=True)
    status = sa.Column(sa.String(16), nullable=False)
    # the vm_state the server had when the move was asked, restored after it
    old_vm_state = sa.Column(sa.String(16), nullable=True)
    # the host_status event that announced this move to the server (0: a
    # move from before such events; NULL: not announced yet)
    host_status_event_id = sa.Column(sa.Integer, nullable=True)
    # the server's uuid while this evacuation is open (accepted or
    # pre-migrating), NULL once it ended: unique, so a second open one for
    # the same server cannot be written
    open_instance_uuid = sa.Column(sa.String(36), nullable=True)


class HostStatusLease(Base):
    """Who the active host-status watcher is: one row per lease name,
    taken and renewed with a conditional UPDATE judged on the database
    clock. ``liveness_unavailable_since`` is the watchers' shared memory of
    a liveness-backend outage, so a failover does not announce it twice."""
    __tablename__ = 'host_status_leases'

    name = sa.Column(sa.String(64), primary_key=True)
    holder = sa.Column(sa.String(255), nullable=True)
    acquired_at = sa.Column(Timestamp, nullable=True)
    renewed_at = sa.Column(Timestamp, nullable=True)
    # the lease expires ttl seconds after renewed_at, on the database clock
    ttl = sa.Column(sa.Float, nullable=True)
    liveness_unavailable_since = sa.Column(Timestamp, nullable=True)


class HostStatusState(Base):
    """The state of each compute service as last announced."""
    __tablename__ = 'host_status_states'
    __table_args__ = (
        sa.UniqueConstraint('host', 'binary', name='uniq_host_status_states0host0binary'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    host = sa.Column(sa.String(255), nullable=False)
    binary = sa.Column(sa.String(255), nullable=False)
    status = sa.Column(sa.String(16), nullable=False)
    liveness = sa.Column(sa.String(16), nullable=False)
    admin_state = sa.Column(sa.String(16), nullable=False)
    since = sa.Column(Timestamp, nullable=False)


class HostStatusEvent(Base):
    """One transition, stored once; ``id`` orders the feed, ``uuid`` names
    it in every delivery. The service columns are NULL for the two events
    of a liveness-backend outage (reason says which); ``instance_uuid``
    names the one server an event concerns (an evacuation moved it to
    ``host``), NULL for a service's transition."""
    __tablename__ = 'host_status_events'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_host_status_events0uuid'),
        # the server_id filter and the fan-out: the events of one host in order
        sa.Index('host_status_events_host_id_idx', 'host', 'id'),
        # retention pruning and undelivered retries
        sa.Index('host_status_events_at_idx', 'at'),
        sa.Index('host_status_events_delivered_id_idx', 'delivered_at', 'id'),
        # a server's own events (its evacuations) in the server_id filter
        sa.Index('host_status_events_instance_id_idx', 'instance_uuid', 'id'),
        # never reuse an id once pruned: a cursor past it must not skip new ones
        {'sqlite_autoincrement': True},
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    host = sa.Column(sa.String(255), nullable=True)
    binary = sa.Column(sa.String(255), nullable=True)
    old_status = sa.Column(sa.String(16), nullable=True)
    new_status = sa.Column(sa.String(16), nullable=True)
    liveness = sa.Column(sa.String(16), nullable=True)
    admin_state = sa.Column(sa.String(16), nullable=True)
    old_liveness = sa.Column(sa.String(16), nullable=True)
    old_admin_state = sa.Column(sa.String(16), nullable=True)
    reason = sa.Column(sa.String(32), nullable=False)
    at = sa.Column(Timestamp, nullable=False)
    last_seen_up = sa.Column(Timestamp, nullable=True)
    delivered_at = sa.Column(Timestamp, nullable=True)
    # the watcher as Masakari's host monitor: when and how it settled this
    # transition (nova/notifications/host_monitor.py)
    host_monitor_at = sa.Column(Timestamp, nullable=True)
    host_monitor_result = sa.Column(sa.String(16), nullable=True)
    instance_uuid = sa.Column(sa.String(36), nullable=True)


class HostMaintenanceWindow(Base):
    """A planned maintenance of one compute host. ``state`` moves
    scheduled -> in-progress -> completed (the watcher, at start and end) or
    scheduled -> cancelled (an operator); ``disabled_service`` remembers
    whether the window disabled the service, so its end enables it again
    only then."""
    __tablename__ = 'host_maintenance_windows'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_host_maintenance_windows0uuid'),
        # overlap checks and a host's current or next window
        sa.Index('host_maintenance_windows_host_state_idx', 'host', 'state', 'start_at'),
        # the watcher's due windows
        sa.Index('host_maintenance_windows_state_start_idx', 'state', 'start_at'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    host = sa.Column(sa.String(255), nullable=False)
    start_at = sa.Column(Timestamp, nullable=False)
    end_at = sa.Column(Timestamp, nullable=False)
    reason = sa.Column(sa.String(255), nullable=False, default='', server_default='')
    impact = sa.Column(sa.String(16), nullable=False)
    state = sa.Column(sa.String(16), nullable=False)
    disabled_service = sa.Column(sa.Boolean, nullable=False, default=False,
                                 server_default=sa.false())
    created_at = sa.Column(Timestamp, nullable=False)
    updated_at = sa.Column(Timestamp, nullable=False)


class HostMaintenanceLock(Base):
    """One row per host that ever had a window: writers of that host's
    windows UPDATE it first, so overlap checks of concurrent requests run
    one after the other on every backend."""
    __tablename__ = 'host_maintenance_locks'

    host = sa.Column(sa.String(255), primary_key=True)
    writes = sa.Column(sa.Integer, nullable=False, default=0, server_default='0')



class InstanceGroup(Base):
    """A server group (os-server-groups): one policy, its rules (JSON text,
    only max_server_per_host), deleted for good as Nova's API database
    does. Writers that place a member UPDATE the row first, so placements
    in one group are judged one after the other on every backend."""
    __tablename__ = 'instance_groups'
    __table_args__ = (
        sa.UniqueConstraint('uuid', name='uniq_instance_groups0uuid'),
        sa.Index('instance_groups_project_id_idx', 'project_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=True)
    project_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=False)
    policy = sa.Column(sa.String(255), nullable=False)
    rules = sa.Column(sa.Text, nullable=True)
    created_at = sa.Column(Timestamp, nullable=False)
    updated_at = sa.Column(Timestamp, nullable=True)


class InstanceGroupMember(Base):
    """A server's membership of its group (a server is in at most one);
    goes with its group. A deleted server's row may stay: members are
    always read joined to the live servers."""
    __tablename__ = 'instance_group_members'
    __table_args__ = (
        sa.UniqueConstraint('instance_uuid', name='uniq_instance_group_members0instance_uuid'),
        sa.Index('instance_group_members_group_id_idx', 'group_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    group_id = sa.Column(sa.Integer, sa.ForeignKey('instance_groups.id', ondelete='CASCADE'),
                         nullable=False)
    instance_uuid = sa.Column(sa.String(36), nullable=False)



class InstanceAction(Base):
    """What was asked of a server (os-instance-actions): one row per
    request that changed it, named by the request's id; kept after the
    server is deleted (2.21)."""
    __tablename__ = 'instance_actions'
    __table_args__ = (
        # a server's actions newest first, and one by its request id
        sa.Index('instance_actions_instance_uuid_id_idx', 'instance_uuid', 'id'),
        sa.Index('instance_actions_request_id_idx', 'request_id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    action = sa.Column(sa.String(255), nullable=False)
    instance_uuid = sa.Column(sa.String(36), nullable=False)
    request_id = sa.Column(sa.String(255), nullable=False)
    user_id = sa.Column(sa.String(255), nullable=True)
    project_id = sa.Column(sa.String(255), nullable=True)
    start_time = sa.Column(Timestamp, nullable=False)
    finish_time = sa.Column(Timestamp, nullable=True)
    message = sa.Column(sa.String(255), nullable=True)
    created_at = sa.Column(Timestamp, nullable=False)
    updated_at = sa.Column(Timestamp, nullable=True)


class InstanceActionEvent(Base):
    """One step of an action, where it ran (``host``) and how it ended
    (``result`` Success or Error, null while it runs)."""
    __tablename__ = 'instance_actions_events'
    __table_args__ = (
        sa.Index('instance_actions_events_action_id_idx', 'action_id', 'id'),
    )

    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    action_id = sa.Column(sa.Integer, nullable=False)
    event = sa.Column(sa.String(255), nullable=False)
    start_time = sa.Column(Timestamp, nullable=False)
    finish_time = sa.Column(Timestamp, nullable=True)
    result = sa.Column(sa.String(255), nullable=True)
    traceback = sa.Column(sa.Text, nullable=True)
    host = sa.Column(sa.String(255), nullable=True)


services = Service.__table__
instances = Instance.__table__
instance_faults = InstanceFault.__table__
instance_tags = InstanceTag.__table__
flavors = Flavor.__table__
flavor_extra_specs = FlavorExtraSpec.__table__
aggregates = Aggregate.__table__
aggregate_hosts = AggregateHost.__table__
aggregate_metadata = AggregateMetadata.__table__
flavor_projects = FlavorProject.__table__
key_pairs = KeyPair.__table__
host_status_leases = HostStatusLease.__table__
host_status_states = HostStatusState.__table__
host_status_events = HostStatusEvent.__table__
host_maintenance_windows = HostMaintenanceWindow.__table__
host_maintenance_locks = HostMaintenanceLock.__table__
migrations = Migration.__table__
instance_groups = InstanceGroup.__table__
instance_group_members = InstanceGroupMember.__table__
instance_actions = InstanceAction.__table__
instance_actions_events = InstanceActionEvent.__table__
