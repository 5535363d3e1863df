"""Instance actions: what the API records of each request that changed a
server, the steps (events) each action's workers record, with Nova's
names, and the reads of os-instance-actions."""
from nova.db import instance_actions as db
from nova import exception

# Nova's action names (nova/compute/instance_actions.py there)
CREATE = 'create'
DELETE = 'delete'
STOP = 'stop'
START = 'start'
REBOOT = 'reboot'
LOCK = 'lock'
UNLOCK = 'unlock'
EVACUATE = 'evacuate'

# Nova's event names: the step and who does it
BUILD_EVENT = 'compute__do_build_and_run_instance'
SCHEDULE_EVENT = 'conductor_schedule_and_build_instances'
TERMINATE_EVENT = 'compute_terminate_instance'
POWER_EVENTS = {'powering-off': (STOP, 'compute_stop_instance'),
                'powering-on': (START, 'compute_start_instance'),
                'rebooting': (REBOOT, 'compute_reboot_instance'),
                'rebooting_hard': (REBOOT, 'compute_reboot_instance')}
CONDUCTOR_REBUILD_EVENT = 'conductor_rebuild_server'
REBUILD_EVENT = 'compute_rebuild_instance'
# ours: the destination taking the server before it spawns (issue 23's claim)
CLAIM_EVENT = 'compute_claim_evacuation'

SUCCESS, ERROR = db.SUCCESS, db.ERROR


def record(context, uuids, action, conn=None):
    db.start([{'uuid': uuid} for uuid in uuids], action, context.request_id,
             context.user_id, context.project_id, conn=conn)


event_start = db.event_start
event_finish = db.event_finish
event_record = db.event_record


def page(uuid, limit=None, marker=None, since=None, before=None):
    rows, found = db.page(uuid, limit, marker, since, before)
    if not found:
        raise exception.InstanceActionMarkerNotFound(marker=marker)
    return rows


def get(uuid, request_id):
    found = db.get(uuid, request_id)
    if found is None:
        raise exception.InstanceActionNotFound(request_id=request_id)
    return found


def server_project(context, uuid, with_deleted):
    """The project of the server ``uuid`` (deleted too, from 2.21), when
    the caller may see it: a non-admin only sees their project's servers
    (InstanceNotFound otherwise, as for one that never was)."""
    project_id = db.server_project(uuid, with_deleted)
    if project_id is None or (not context.is_admin and project_id != context.project_id):
        raise exception.InstanceNotFound(instance_id=uuid)
    return project_id
