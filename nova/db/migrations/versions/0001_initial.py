"""Initial schema: services, instances, instance_faults, flavors.

Revision ID: 0001
Revises:
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None

Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')

FLAVORS = (
    ('1', 'm1.tiny', 512, 1, 1),
    ('2', 'm1.small', 2048, 1, 20),
    ('3', 'm1.medium', 4096, 2, 40),
    ('4', 'm1.large', 8192, 4, 80),
    ('5', 'm1.xlarge', 16384, 8, 160),
)


def _timestamps():
    return [
        sa.Column('created_at', Timestamp, nullable=True),
        sa.Column('updated_at', Timestamp, nullable=True),
        sa.Column('deleted_at', Timestamp, nullable=True),
        sa.Column('deleted', sa.Integer, nullable=False, server_default='0'),
    ]


def upgrade():
    op.create_table(
        'services',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('host', sa.String(255), nullable=False),
        sa.Column('binary', sa.String(255), nullable=False),
        sa.Column('topic', sa.String(255), nullable=True),
        sa.Column('report_count', sa.Integer, nullable=False, server_default='0'),
        sa.Column('disabled', sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column('disabled_reason', sa.String(255), nullable=True),
        sa.Column('forced_down', sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column('last_seen_up', Timestamp, nullable=True),
        *_timestamps(),
        sa.UniqueConstraint('host', 'binary', 'deleted', name='uniq_services0host0binary0deleted'),
        sa.UniqueConstraint('uuid', name='uniq_services0uuid'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_table(
        'instances',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('display_name', sa.String(255), nullable=True),
        sa.Column('hostname', sa.String(255), nullable=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('user_id', sa.String(255), nullable=False),
        sa.Column('host', sa.String(255), nullable=True),
        sa.Column('node', sa.String(255), nullable=True),
        sa.Column('availability_zone', sa.String(255), nullable=True),
        sa.Column('vm_state', sa.String(255), nullable=True),
        sa.Column('task_state', sa.String(255), nullable=True),
        sa.Column('power_state', sa.Integer, nullable=False, server_default='0'),
        sa.Column('progress', sa.Integer, nullable=False, server_default='0'),
        sa.Column('image_ref', sa.String(255), nullable=True),
        sa.Column('flavor_id', sa.String(255), nullable=False),
        sa.Column('key_name', sa.String(255), nullable=True),
        sa.Column('user_data', sa.Text, nullable=True),
        sa.Column('config_drive', sa.String(255), nullable=False, server_default=''),
        sa.Column('disk_config', sa.String(16), nullable=False, server_default='MANUAL'),
        sa.Column('access_ip_v4', sa.String(39), nullable=True),
        sa.Column('access_ip_v6', sa.String(39), nullable=True),
        sa.Column('reservation_id', sa.String(255), nullable=False),
        sa.Column('launch_index', sa.Integer, nullable=False, server_default='0'),
        sa.Column('kernel_id', sa.String(255), nullable=True),
        sa.Column('ramdisk_id', sa.String(255), nullable=True),
        sa.Column('root_device_name', sa.String(255), nullable=True),
        sa.Column('launched_at', Timestamp, nullable=True),
        sa.Column('terminated_at', Timestamp, nullable=True),
        sa.Column('locked', sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column('metadata', sa.Text, nullable=False, server_default='{}'),
        sa.Column('security_groups', sa.Text, nullable=True),
        *_timestamps(),
        sa.UniqueConstraint('uuid', name='uniq_instances0uuid'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_index('instances_project_deleted_created_idx', 'instances',
                    ['project_id', 'deleted', 'created_at', 'id'])
    op.create_index('instances_deleted_created_idx', 'instances',
                    ['deleted', 'created_at', 'id'])
    op.create_index('instances_host_deleted_task_idx', 'instances',
                    ['host', 'deleted', 'task_state'])
    op.create_table(
        'instance_faults',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('instance_uuid', sa.String(36), nullable=False),
        sa.Column('code', sa.Integer, nullable=False),
        sa.Column('message', sa.String(255), nullable=True),
        sa.Column('details', sa.Text, nullable=True),
        sa.Column('host', sa.String(255), nullable=True),
        *_timestamps(),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.create_index('instance_faults_instance_uuid_id_idx', 'instance_faults',
                    ['instance_uuid', 'id'])
    flavors = op.create_table(
        'flavors',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('flavorid', sa.String(255), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('memory_mb', sa.Integer, nullable=False),
        sa.Column('vcpus', sa.Integer, nullable=False),
        sa.Column('root_gb', sa.Integer, nullable=False),
        sa.Column('ephemeral_gb', sa.Integer, nullable=False, server_default='0'),
        sa.Column('swap', sa.Integer, nullable=False, server_default='0'),
        sa.Column('rxtx_factor', sa.Float, nullable=False, server_default='1'),
        sa.Column('is_public', sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column('disabled', sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint('flavorid', name='uniq_flavors0flavorid'),
        sa.UniqueConstraint('name', name='uniq_flavors0name'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4',
    )
    op.bulk_insert(flavors, [
        {'flavorid': f, 'name': n, 'memory_mb': m, 'vcpus': v, 'root_gb': d,
         'ephemeral_gb': 0, 'swap': 0, 'rxtx_factor': 1.0, 'is_public': True,
         'disabled': False}
        for f, n, m, v, d in FLAVORS])
