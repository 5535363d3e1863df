"""Rows and requests that exercise every branch of the server view builder,
for the golden test (test_server_view_golden.py)."""
import datetime
import json
import types

from nova.api.openstack import api_version_request as avr
from nova.tests import fixtures as nova_fixtures

T0 = datetime.datetime(2026, 11, 29, 21, 43, 23, 123456)
T1 = datetime.datetime(2026, 11, 29, 21, 44, 0)

BASE = dict(
    id=1, uuid='8eea19b9-4606-5d68-85c0-e4f66f7f578c', display_name='web-1',
    hostname='web-1', project_id='demo', user_id='demo', host='host-1', node='host-1',
    availability_zone='nova', vm_state='active', task_state=None, power_state=1,
    progress=0, image_ref=nova_fixtures.IMAGE, flavor_id='1',
    key_name=None, user_data=None, config_drive='', disk_config='MANUAL',
    access_ip_v4=None, access_ip_v6=None, reservation_id='r-abcdefgh', launch_index=0,
    kernel_id=None, ramdisk_id=None, root_device_name=None, launched_at=T0,
    terminated_at=None, locked=False, metadata='{}', security_groups=None,
    created_at=T0, updated_at=T1, deleted_at=None, deleted=0, fault_code=None,
    fault_message=None, fault_details=None, fault_created_at=None)


def shown_times(row):
    """The times the database formats beside a row's own columns
    (nova/db/timestamp_text.py), from its datetimes."""
    def seconds(value):
        return value and value.strftime('%Y-%m-%dT%H:%M:%SZ')

    def micro(value):
        return value and value.strftime('%Y-%m-%dT%H:%M:%S.%f')
    return {'created_iso': seconds(row['created_at']),
            'updated_iso': seconds(row['updated_at'] or row['created_at']),
            'launched_iso': micro(row['launched_at']),
            'terminated_iso': micro(row['terminated_at']),
            'fault_created_iso': seconds(row['fault_created_at'])}


def rows():
    def row(**changes):
        values = dict(BASE)
        values.update(changes)
        values['id'] = len(made) + 1
        values['uuid'] = 'aaaaaaaa-0000-4000-8000-%012d' % values['id']
        values.update(shown_times(values))
        made.append(values)
    made = []
    row()
    row(metadata=json.dumps({'ha': 'true', 'tier': 'web'}),
        security_groups=json.dumps(['default', 'web']), key_name='key',
        access_ip_v4='10.0.0.5', access_ip_v6='fd00::5', locked=True,
        user_data='dXNlcg==', kernel_id='k', ramdisk_id='r', root_device_name='/dev/vda',
        launch_index=2, config_drive='True', disk_config='AUTO')
    row(metadata=json.dumps({'ha': 'true', 'tier': 'web'}))       # same text again
    row(security_groups='[]', updated_at=None)
    row(vm_state='error', task_state=None, host=None, node=None, availability_zone='',
        power_state=0, launched_at=None, image_ref='', fault_code=500,
        fault_message='No valid host was found.', fault_details='none up',
        fault_created_at=T1)
    row(vm_state='error', fault_code=404, fault_message='gone', fault_details='trace',
        fault_created_at=T1)
    row(vm_state='error', fault_code=500, fault_message='no details',
        fault_details=None, fault_created_at=T1)
    row(vm_state='error')                                       # no fault row
    row(vm_state='deleted', terminated_at=T1, fault_code=500, fault_message='x',
        fault_details='y', fault_created_at=T0)
    row(vm_state='building', task_state='scheduling', host=None, node=None,
        launched_at=None, progress=None)
    row(vm_state='active', task_state='rebooting', progress=40)
    row(vm_state='stopped', power_state=4)
    row(vm_state='shelved_offloaded', host=None)
    row(vm_state='no-such-state')
    row(display_name='sérveur 服务器', project_id='alt', host='host-2', flavor_id='3',
        launched_at=T1)
    row(project_id='alt', host='host-2')
    return made


def requests():
    """(label, request-like object, host_status mode) triples."""
    found = []
    for version in ('2.1', '2.3', '2.9', '2.15', '2.16'):
        for admin in (True, False):
            for project in (None, 'demo'):
                api_version = avr.APIVersionRequest(version)
                req = types.SimpleNamespace(
                    application_url='http://127.0.0.1:8774', project_in_path=project,
                    api_version=api_version, at_least=api_version.at_least,
                    context=types.SimpleNamespace(is_admin=admin, project_id='demo'))
                modes = (None, 'all', 'unknown-only') if version == '2.16' else (None,)
                for mode in modes:
                    found.append(('%s admin=%s project=%s mode=%s'
                                  % (version, admin, project, mode), req, mode))
    return found


STATUSES = {'host-1': 'UP', 'host-2': 'UNKNOWN'}

