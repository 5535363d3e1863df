"""The tables, as SQLAlchemy Core/declarative models.

Rows are soft-deleted: ``deleted`` is 0 while live and the row's id once
deleted, so unique constraints can include it.
"""
import sqlalchemy as sa
from sqlalchemy import orm

from nova.db.types import Timestamp


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
    # JSON text: kept in the row so a page of servers is one query.
    metadata_json = sa.Column('metadata', sa.Text, nullable=False, default='{}', server_default='{}')
    security_groups_json = sa.Column('security_groups', sa.Text, nullable=True)


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


services = Service.__table__
instances = Instance.__table__
instance_faults = InstanceFault.__table__
flavors = Flavor.__table__
