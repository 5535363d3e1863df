"""openstackclient's entry into the plugin (registered in setup.cfg under
openstack.cli.extension): the client its commands use is a keystoneauth
adapter on the compute endpoint, since openstacksdk refuses the query
parameters and paths these resources add."""
from keystoneauth1 import adapter

API_NAME = 'compute_host_status'
API_VERSION_OPTION = 'os_compute_host_status_api_version'
DEFAULT_API_VERSION = '1'
API_VERSIONS = ('1',)


class Client:
    """JSON requests to the compute API; faults become CommandErrors."""

    def __init__(self, session, interface=None, region_name=None):
        self.adapter = adapter.Adapter(session=session, service_type='compute',
                                       interface=interface, region_name=region_name)

    def request(self, method, path, body=None, version=None):
        from osc_lib import exceptions
        headers = {'Accept': 'application/json'}
        if version:
            headers['OpenStack-API-Version'] = 'compute %s' % version
        response = self.adapter.request(path, method, json=body, headers=headers,
                                        raise_exc=False)
        if response.status_code >= 400:
            raise exceptions.CommandError('%s %s: %d %s' % (
                method, path, response.status_code, _fault_message(response)))
        return response.json() if response.content else None

    def get(self, path, version=None):
        return self.request('GET', path, version=version)


def _fault_message(response):
    """The message of Nova's fault body ({"<name>": {"code", "message"}})."""
    try:
        body = response.json()
        (fault,) = body.values()
        return fault['message']
    except (ValueError, TypeError, KeyError, AttributeError):
        return response.text[:500]


def make_client(instance):
    instance.setup_auth()
    return Client(instance.session, interface=instance.interface,
                  region_name=instance.region_name)


def build_option_parser(parser):
    parser.add_argument(
        '--os-compute-host-status-api-version', metavar='<version>',
        default=DEFAULT_API_VERSION,
        help='Version of the host status commands (default %s)' % DEFAULT_API_VERSION)
    return parser
