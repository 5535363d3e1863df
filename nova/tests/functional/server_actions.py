"""Helpers of the server-action tests: POST /servers/{id}/action on an
AllInOne, checked against tempest's schema for that action, and what each
simulated hypervisor runs."""
import json
import os

from tempest.lib.api_schema.response.compute.v2_1 import servers as tempest_v2_1
from tempest.lib.common import rest_client

from nova.api.openstack import api_version_request as avr
from nova.tests.functional import fixtures as func
from nova.tests.functional import tempest_schemas


def tempest_schema(action, version):
    """The schema tempest's servers client applies to ``action``'s answer."""
    if action == 'evacuate':
        if version is None or not avr.APIVersionRequest(version).at_least(
                avr.EVACUATE_NO_SHARED_STORAGE):
            return tempest_v2_1.evacuate_server_with_admin_pass
        return tempest_v2_1.evacuate_server
    return tempest_v2_1.server_actions_common_schema


def act(nova, uuid, body, token=func.ADMIN, version=None):
    """Run one action; a success must pass tempest's schema for it."""
    resp = nova.request('POST', '/v2.1/servers/%s/action' % uuid, token=token,
                        version=version, body=body)
    if resp.status < 300:
        (name,) = body
        served = tempest_schemas.served_version(resp.headers)
        rest_client.RestClient.validate_response(
            tempest_schema(name, served), tempest_schemas._Resp(resp.status, resp.headers),
            resp.json)
    return resp


def state(nova, uuid):
    """(status, vm_state, task_state, power_state, host) as an admin sees them."""
    server = nova.show(uuid).json['server']
    return (server['status'], server['OS-EXT-STS:vm_state'], server['OS-EXT-STS:task_state'],
            server['OS-EXT-STS:power_state'], server['OS-EXT-SRV-ATTR:host'])


def wait_for_state(nova, uuid, expected, timeout=20):
    nova._wait(lambda: state(nova, uuid) == expected, timeout,
               '%s to be %s (is %s)' % (uuid, expected, state(nova, uuid)))


def fault(resp):
    (name, body), = resp.json.items()
    return resp.status, name, body['message']


def guests(nova, host):
    """{uuid: power_state} of what ``host``'s fake hypervisor runs."""
    path = os.path.join(nova.data_dir, 'hypervisors', host + '.json')
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)
