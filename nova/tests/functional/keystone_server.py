"""A real Keystone 30 for the functional tests: its own venv
(service_venvs), SQLite and fernet keys in a temporary directory, served by
gunicorn on a free port. Bootstrapped with:

* ``admin`` (role admin in project ``admin``), as ``keystone-manage
  bootstrap`` makes it, with the roles admin, member and reader;
* ``demo``, a member (roles member and reader) of project ``demo``;
* ``nova``, the compute API's service user (role service in project
  ``service``), which keystonemiddleware validates tokens as;

and ``add_user()`` for more.

Every password is ``PASSWORD``. ``register()`` adds a service and its
endpoints to the catalog; ``authtoken_config()`` is the [api] and
[keystone_authtoken] text that puts an all-in-one behind it.
"""
import fcntl
import os
import shutil
import subprocess
import time
import urllib.request

import fixtures

from nova.tests.functional import service_venvs
from nova.tests.functional.fixtures import free_port, terminate

PASSWORD = 'secret-for-tests'
REGION = 'RegionOne'
PLACEHOLDER_URL = 'http://127.0.0.1:5000/v3'
READY_TIMEOUT = 60
# Keystone parses sys.argv for its own options: gunicorn's are not theirs
WSGI = """\
import sys; sys.argv[1:] = []
from keystone.server import wsgi
application = wsgi.initialize_public_application()
"""


def _write_config(directory, extra=''):
    """keystone.conf for a Keystone whose files all live in ``directory``
    (``extra``: more of its text)."""
    path = os.path.join(directory, 'keystone.conf')
    with open(path, 'w') as f:
        f.write('[DEFAULT]\nlog_file = %s\n\n'
                '[database]\nconnection = sqlite:///%s\n\n'
                '[token]\nprovider = fernet\n\n'
                '[fernet_tokens]\nkey_repository = %s\n\n'
                '[fernet_receipts]\nkey_repository = %s\n\n'
                '[credential]\nkey_repository = %s\n'
                % tuple(os.path.join(directory, name) for name in (
                    'keystone.log', 'keystone.sqlite', 'fernet-keys',
                    'fernet-receipts', 'credential-keys')))
        f.write(extra)
    return path


def _manage(venv, config, *args):
    result = subprocess.run(
        [os.path.join(venv, 'bin', 'keystone-manage'), '--config-file', config]
        + list(args), env=dict(os.environ, OS_KEYSTONE_CONFIG_FILES=config),
        capture_output=True, text=True)
    if result.returncode:
        raise AssertionError('keystone-manage %s: %s%s' % (args[0], result.stdout,
                                                           result.stderr))


def bootstrapped(venv):
    """A directory with a Keystone database and keys after ``keystone-manage
    db_sync``, ``fernet_setup``, ``credential_setup`` and ``bootstrap``:
    made once per venv (each command takes seconds, mostly imports), copied
    by every Keystone started from it. Its identity endpoints point at
    PLACEHOLDER_URL until a Keystone sets its own."""
    root = os.path.join(venv, 'bootstrapped')
    done = os.path.join(root, 'done')
    with open(root + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(done):
            return root
        shutil.rmtree(root, ignore_errors=True)
        os.mkdir(root)
        for name in ('fernet-keys', 'fernet-receipts', 'credential-keys'):
            os.mkdir(os.path.join(root, name), 0o700)
        config = _write_config(root)
        owner = ('--keystone-user', str(os.getuid()), '--keystone-group', str(os.getgid()))
        _manage(venv, config, 'db_sync')
        _manage(venv, config, 'fernet_setup', *owner)
        _manage(venv, config, 'credential_setup', *owner)
        _manage(venv, config, 'bootstrap', '--bootstrap-password', PASSWORD,
                '--bootstrap-region-id', REGION, '--bootstrap-admin-url', PLACEHOLDER_URL,
                '--bootstrap-public-url', PLACEHOLDER_URL,
                '--bootstrap-internal-url', PLACEHOLDER_URL)
        with open(done, 'w'):
            pass
        return root


class Keystone(fixtures.Fixture):

    def __init__(self, extra_config=''):
        """``extra_config``: keystone.conf text of the caller's (e.g. an
        [identity] password_hash_rounds for the users it adds)."""
        super().__init__()
        self.extra_config = extra_config

    def _setUp(self):
        self.venv = service_venvs.ensure('keystone')
        self.dir = os.path.join(self.useFixture(fixtures.TempDir()).path, 'keystone')
        shutil.copytree(bootstrapped(self.venv), self.dir)
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d/v3' % self.port
        self.config = _write_config(self.dir, self.extra_config)
        with open(os.path.join(self.dir, 'keystone_wsgi.py'), 'w') as f:
            f.write(WSGI)
        self.log = open(os.path.join(self.dir, 'gunicorn.log'), 'wb')
        self.addCleanup(self.log.close)
        self.process = subprocess.Popen(
            [os.path.join(self.venv, 'bin', 'gunicorn'), '--bind', '127.0.0.1:%d' % self.port,
             '--workers', '1', '--no-control-socket', '--chdir', self.dir,
             'keystone_wsgi:application'],
            env=dict(os.environ, OS_KEYSTONE_CONFIG_FILES=self.config),
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.addCleanup(terminate, self.process)
        self._wait_ready()
        self.admin = self.connect('admin', 'admin')
        for endpoint in self.admin.identity.endpoints():
            self.admin.identity.update_endpoint(endpoint, url=self.url)
        self._seed()

    def _wait_ready(self):
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError('keystone exited with %s:\n%s'
                                     % (self.process.returncode, self.logs()))
            try:
                with urllib.request.urlopen(self.url, timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError('keystone did not answer on %s:\n%s' % (self.url, self.logs()))

    def logs(self):
        """The ends of gunicorn's and Keystone's logs."""
        text = []
        for name in ('gunicorn.log', 'keystone.log'):
            try:
                with open(os.path.join(self.dir, name), 'rb') as f:
                    text.append('--- %s\n%s' % (name, f.read()[-4000:].decode('utf-8', 'replace')))
            except OSError:
                pass
        return '\n'.join(text)

    def _seed(self):
        identity = self.admin.identity
        self._roles = {role.name: role for role in identity.roles()}
        for name in ('member', 'reader', 'service'):    # bootstrap makes them all today
            if name not in self._roles:
                self._roles[name] = identity.create_role(name=name)
        self._projects = {p.name: p for p in identity.projects()}
        self.add_user('demo', 'demo', ('member', 'reader'))
        self.add_user('nova', 'service', ('service',))

    def add_user(self, name, project, roles):
        """A user with ``roles`` in ``project`` (made if new), password
        PASSWORD."""
        identity = self.admin.identity
        if project not in self._projects:
            self._projects[project] = identity.create_project(name=project,
                                                              domain_id='default')
        user = identity.create_user(name=name, password=PASSWORD, domain_id='default',
                                    default_project_id=self._projects[project].id)
        for role in roles:
            identity.assign_project_role_to_user(self._projects[project], user,
                                                 self._roles[role])

    def connect(self, user, project):
        """openstacksdk with password auth as ``user`` in ``project``."""
        import openstack
        return openstack.connect(
            auth_type='password', load_yaml_config=False, load_envvars=False,
            auth={'auth_url': self.url, 'username': user, 'password': PASSWORD,
                  'project_name': project, 'user_domain_name': 'Default',
                  'project_domain_name': 'Default'},
            region_name=REGION, identity_api_version='3',
            # the catalog names the template's URL until _setUp updated it
            identity_endpoint_override=self.url)

    def register(self, service_type, name, url):
        """``url`` as the public, internal and admin endpoint of a new
        service of ``service_type``."""
        identity = self.admin.identity
        service = identity.create_service(type=service_type, name=name)
        for interface in ('public', 'internal', 'admin'):
            identity.create_endpoint(service_id=service.id, interface=interface, url=url,
                                     region_id=REGION)

    def authtoken_config(self):
        return ('[api]\nauth_strategy = keystone\n\n'
                '[keystone_authtoken]\nwww_authenticate_uri = %(url)s\n'
                'auth_url = %(url)s\nauth_type = password\nusername = nova\n'
                'password = %(password)s\nproject_name = service\n'
                'user_domain_name = Default\nproject_domain_name = Default\n'
                'region_name = %(region)s\n'
                % {'url': self.url, 'password': PASSWORD, 'region': REGION})

    def cli_env(self, user, project):
        """openstackclient's environment for password auth (nothing else
        of the caller's OS_* leaks in)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
        env.update(OS_AUTH_URL=self.url, OS_USERNAME=user, OS_PASSWORD=PASSWORD,
                   OS_PROJECT_NAME=project, OS_USER_DOMAIN_NAME='Default',
                   OS_PROJECT_DOMAIN_NAME='Default', OS_IDENTITY_API_VERSION='3',
                   OS_REGION_NAME=REGION, PYTHONWARNINGS='ignore')
        return env
