"""The payloads of the host status notifications, in Nova's versioned
object form ({nova_object.name, .namespace, .version, .data}).

Bump a payload's version when its fields change: a minor version for an
added field, a major one for anything a consumer could trip on.
"""
from nova.compute.host_id import host_id

SERVICE_HOST_STATUS = ('ServiceHostStatusPayload', '1.0')
INSTANCE_HOST_STATUS = ('InstanceHostStatusPayload', '1.0')
# Nova's own, with its fields, so existing service.update consumers work
SERVICE_STATUS = ('ServiceStatusPayload', '1.1')
SERVICE_FENCE = ('ServiceFencePayload', '1.0')
FENCE_BRAKE = ('FenceBrakePayload', '1.0')
# there are no RPC versions here to report in ServiceStatusPayload.version
SERVICE_VERSION = 0


def versioned(kind, data):
    name, version = kind
    return {'nova_object.name': name, 'nova_object.namespace': 'nova',
            'nova_object.version': version, 'nova_object.data': data}


def isotime(value):
    return value.isoformat(timespec='microseconds') + 'Z' if value is not None else None


def nova_isotime(value):
    """A time as Nova's versioned notifications write it: whole seconds."""
    return value.isoformat(timespec='seconds') + 'Z' if value is not None else None


def _transition(event):
    return {'event_id': event['uuid'], 'host': event['host'], 'binary': event['binary'],
            'old_status': event['old_status'], 'new_status': event['new_status'],
            'liveness': event['liveness'], 'admin_state': event['admin_state'],
            'reason': event['reason'], 'since': isotime(event['at']),
            'last_seen_up': isotime(event['last_seen_up'])}


def service_host_status(event):
    """service.host_status.update for a stored event row."""
    return versioned(SERVICE_HOST_STATUS, _transition(event))


def instance_host_status(event, server):
    """instance.host_status.update: ``server`` has uuid, project_id, user_id."""
    data = {'uuid': server['uuid'], 'tenant_id': server['project_id'],
            'user_id': server['user_id'],
            'host_id': host_id(server['project_id'], event['host'])}
    data.update(_transition(event))
    return versioned(INSTANCE_HOST_STATUS, data)


def service_fence(event):
    """service.fence.start|end|error for a stored fencing event."""
    return versioned(SERVICE_FENCE, {
        'event_id': event['uuid'], 'host': event['host'], 'binary': event['binary'],
        'reason': event['reason'], 'at': isotime(event['at'])})


def fence_brake(event):
    """service.fence_brake.engage|release for a stored brake event."""
    return versioned(FENCE_BRAKE, {'event_id': event['uuid'], 'reason': event['reason'],
                                   'at': isotime(event['at'])})


def service_status(service, availability_zone):
    """Nova's service.update payload for a live service row."""
    return versioned(SERVICE_STATUS, {
        'host': service['host'], 'binary': service['binary'], 'topic': service['topic'],
        'report_count': service['report_count'], 'disabled': bool(service['disabled']),
        'disabled_reason': service['disabled_reason'],
        'availability_zone': availability_zone,
        'last_seen_up': nova_isotime(service['last_seen_up']),
        'forced_down': bool(service['forced_down']), 'version': SERVICE_VERSION,
        'uuid': service['uuid']})
