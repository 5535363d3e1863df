"""Real OpenStack clients pointed at an AllInOne exactly as README.rst's
"Using real clients" section shows: keystoneauth's ``admin_token`` plugin,
no Keystone, the all-in-one's identity and image documents."""
import os
import subprocess
import sys

from keystoneauth1 import session as ks_session
from keystoneauth1 import token_endpoint
from novaclient import api_versions
from novaclient import client as nova_client

from nova.tests.functional import fixtures as func

BIN = os.path.dirname(sys.executable)


def endpoint(nova):
    return nova.url + '/v2.1'


def cli_env(nova, token, version=None):
    """The environment README.rst exports (nothing else from ours leaks in)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    env.update(OS_AUTH_TYPE='admin_token', OS_ENDPOINT=endpoint(nova), OS_TOKEN=token,
               OS_IMAGE_ENDPOINT_OVERRIDE=nova.url + '/image',
               OS_IDENTITY_ENDPOINT_OVERRIDE=nova.url + '/identity/v3',
               PYTHONWARNINGS='ignore')
    if version:
        env['OS_COMPUTE_API_VERSION'] = version
    return env


def run(nova, command, args, token, version=None):
    """``nova`` or ``openstack`` in a subprocess; returns CompletedProcess.

    The nova CLI refuses to start without OS_PROJECT_ID and OS_AUTH_URL
    (nothing contacts them); openstackclient fails WITH OS_PROJECT_ID
    (admin_token takes no project), so README sets them for nova only.
    """
    env = cli_env(nova, token, version)
    if command == 'nova':
        env.update(OS_PROJECT_ID='unused', OS_AUTH_URL=env['OS_IDENTITY_ENDPOINT_OVERRIDE'])
    return subprocess.run([os.path.join(BIN, command)] + list(args), env=env,
                          capture_output=True, text=True, timeout=120)


def table(text):
    """Rows of a prettytable printout as dicts (header -> cell)."""
    lines = [line for line in text.splitlines() if line.startswith('|')]
    if not lines:
        return []
    split = [[cell.strip() for cell in line.strip('|').split('|')] for line in lines]
    header, rows = split[0], split[1:]
    return [dict(zip(header, row)) for row in rows]


def properties(text):
    """``nova show``'s Property/Value table as a dict."""
    return {row['Property']: row['Value'] for row in table(text)}


def _tempest_check(response, *args, **kwargs):
    """requests response hook: what the Python clients receive from the
    compute API passes tempest's schemas too (fixtures.check_tempest_schema)."""
    if response.status_code < 300:
        func.check_tempest_schema(response.request.method, response.url, func.Response(
            response.status_code, list(response.headers.items()), response.content))


def _checked(sess):
    sess.session.hooks['response'].append(_tempest_check)
    return sess


def session(nova, token):
    return _checked(ks_session.Session(auth=token_endpoint.Token(endpoint(nova), token)))


def novaclient(nova, token, version):
    """python-novaclient's Python API; ``2.latest`` is negotiated first, as
    the nova CLI does (the Python API only takes explicit versions)."""
    sess = session(nova, token)
    if version == '2.latest':
        version = api_versions.discover_version(
            nova_client.Client('2.1', session=sess),
            api_versions.APIVersion('2.latest')).get_string()
    return nova_client.Client(version, session=sess)


def sdk(nova, token, version=None):
    """openstacksdk; without ``version`` it negotiates from /v2.1."""
    import openstack
    extra = {'compute_api_version': version} if version else {}
    conn = openstack.connect(
        auth_type='admin_token', auth={'endpoint': endpoint(nova), 'token': token},
        compute_endpoint_override=endpoint(nova),
        image_endpoint_override=nova.url + '/image',
        load_yaml_config=False, load_envvars=False, **extra)
    _checked(conn.session)
    return conn
