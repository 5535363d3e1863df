"""A real OpenStack Masakari 22 for the functional tests and the
time-to-recovery benchmark: masakari-api and masakari-engine from their own
venv (service_venvs), SQLite in a temporary directory, the machine's
RabbitMQ in a vhost of their own (parallel runs never share a queue),
behind a Keystone (keystone_server) that it authenticates to Nova through,
as user ``masakari`` (admin in project ``service``), exactly as a
deployment does. The wait periods of its host-failure flow are short
(``WAITS``; Masakari's defaults make it sleep 180 s before it evacuates).
"""
import os
import subprocess
import time
import urllib.request
import uuid

import fixtures

from nova.tests.functional import keystone_server
from nova.tests.functional import notifications
from nova.tests.functional import service_venvs
from nova.tests.functional.fixtures import free_port, terminate

READY_TIMEOUT = 90
# [DEFAULT] options of Masakari's engine: no sleep after disabling the
# service, a recovery that gives up after 60 s, one look a second
WAITS = {'wait_period_after_service_update': 0, 'wait_period_after_evacuation': 60,
         'verify_interval': 1, 'wait_period_after_power_off': 30,
         'wait_period_after_power_on': 30}
# the reason Masakari disables a failed host's compute service with
# ([host_failure] service_disable_reason, its default)
DISABLE_REASON = 'Masakari detected host failed.'
RABBITMQ = notifications.TRANSPORT_URL.rstrip('/')


def rabbitmqctl(*args):
    subprocess.run(['rabbitmqctl', '-q'] + list(args), check=True, capture_output=True,
                   timeout=120)


class Masakari(fixtures.Fixture):

    def __init__(self, keystone, waits=None):
        super().__init__()
        self.keystone = keystone
        self.waits = dict(WAITS, **(waits or {}))

    def _setUp(self):
        self.venv = service_venvs.ensure('masakari')
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d/v1' % self.port
        self.vhost = 'nova-test-masakari-%s' % uuid.uuid4().hex[:12]
        rabbitmqctl('add_vhost', self.vhost)
        self.addCleanup(rabbitmqctl, 'delete_vhost', self.vhost)
        rabbitmqctl('set_permissions', '-p', self.vhost, 'guest', '.*', '.*', '.*')
        if 'masakari' not in {u.name for u in self.keystone.admin.identity.users()}:
            self.keystone.add_user('masakari', 'service', ('admin', 'service'))
            self.keystone.register('instance-ha', 'masakari', self.url)
        self.config = self._write_config()
        self._run('masakari-manage', '--config-file', self.config, 'db', 'sync')
        self.api = self._start('masakari-api')
        self.engine = self._start('masakari-engine')
        self._wait_ready()

    def _write_config(self):
        path = os.path.join(self.dir, 'masakari.conf')
        ks = self.keystone
        with open(path, 'w') as f:
            f.write('[DEFAULT]\nauth_strategy = keystone\n'
                    'transport_url = %s/%s\n' % (RABBITMQ, self.vhost))
            f.write('host = masakari-test\nmasakari_api_listen = 127.0.0.1\n'
                    'masakari_api_listen_port = %d\nmasakari_api_workers = 1\n' % self.port)
            f.write('os_privileged_user_name = masakari\nos_privileged_user_password = %s\n'
                    'os_privileged_user_tenant = service\nos_privileged_user_auth_url = %s\n'
                    'os_user_domain_name = Default\nos_project_domain_name = Default\n'
                    'os_region_name = %s\n'
                    % (keystone_server.PASSWORD, ks.url, keystone_server.REGION))
            for name, value in sorted(self.waits.items()):
                f.write('%s = %s\n' % (name, value))
            f.write('\n[database]\nconnection = sqlite:///%s\n'
                    '\n[taskflow]\nconnection = sqlite:///%s\n'
                    % (os.path.join(self.dir, 'masakari.sqlite'),
                       os.path.join(self.dir, 'taskflow.sqlite')))
            f.write('\n[keystone_authtoken]\nwww_authenticate_uri = %(url)s\n'
                    'auth_url = %(url)s\nauth_type = password\nusername = masakari\n'
                    'password = %(password)s\nproject_name = service\n'
                    'user_domain_name = Default\nproject_domain_name = Default\n'
                    'region_name = %(region)s\n'
                    % {'url': ks.url, 'password': keystone_server.PASSWORD,
                       'region': keystone_server.REGION})
            f.write('\n[wsgi]\napi_paste_config = %s\n'
                    % os.path.join(self.venv, 'etc', 'masakari', 'api-paste.ini'))
            f.write('\n[oslo_messaging_notifications]\ndriver = noop\n'
                    '\n[oslo_concurrency]\nlock_path = %s\n' % os.path.join(self.dir, 'locks'))
        return path

    def _run(self, command, *args):
        result = subprocess.run([os.path.join(self.venv, 'bin', command)] + list(args),
                                capture_output=True, text=True, timeout=300)
        if result.returncode:
            raise AssertionError('%s %s: %s%s' % (command, ' '.join(args), result.stdout,
                                                  result.stderr))

    def _start(self, command):
        log = os.path.join(self.dir, command + '.log')
        process = subprocess.Popen(
            [os.path.join(self.venv, 'bin', command), '--config-file', self.config,
             '--log-file', log], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.addCleanup(terminate, process)
        return process

    def _engine_consumes(self):
        out = subprocess.run(['rabbitmqctl', '-q', 'list_queues', '-p', self.vhost,
                              'name', 'consumers'], capture_output=True, text=True,
                             timeout=60).stdout
        return any(line.split()[:1] == ['ha_engine'] and line.split()[1] != '0'
                   for line in out.splitlines() if len(line.split()) == 2)

    def _wait_ready(self):
        """The API answers, and the engine consumes its RPC queue (a
        notification cast before it does would wait for the engine's
        periodic retry)."""
        deadline = time.monotonic() + READY_TIMEOUT
        api_up = False
        while time.monotonic() < deadline:
            for process in (self.api, self.engine):
                if process.poll() is not None:
                    raise AssertionError('%s exited with %s:\n%s' % (
                        process.args[0], process.returncode, self.logs()))
            if not api_up:
                try:
                    with urllib.request.urlopen(self.url.rsplit('/', 1)[0] + '/',
                                                timeout=2):
                        api_up = True
                except OSError:
                    pass
            if api_up and self._engine_consumes():
                return
            time.sleep(0.5)
        raise AssertionError('masakari not ready within %d s:\n%s' % (READY_TIMEOUT,
                                                                     self.logs()))

    def logs(self):
        text = []
        for name in ('masakari-api.log', 'masakari-engine.log'):
            try:
                with open(os.path.join(self.dir, name), 'rb') as f:
                    text.append('--- %s\n%s' % (name, f.read()[-6000:].decode('utf-8',
                                                                                'replace')))
            except OSError:
                pass
        return '\n'.join(text)

    def segment(self, conn, name, hosts):
        """A failover segment (recovery method auto) with ``hosts``."""
        ha = conn.instance_ha
        segment = ha.create_segment(name=name, recovery_method='auto',
                                    service_type='COMPUTE')
        for host in hosts:
            ha.create_host(segment.uuid, name=host, type='COMPUTE',
                           control_attributes='SSH')
        return segment

    def wait_for_notification(self, conn, notification_uuid, statuses, timeout=120):
        """The notification once its status is one of ``statuses``."""
        deadline = time.monotonic() + timeout
        while True:
            notification = conn.instance_ha.get_notification(notification_uuid)
            if notification.status in statuses:
                return notification
            if time.monotonic() > deadline:
                raise AssertionError('notification %s is %s after %d s:\n%s' % (
                    notification_uuid, notification.status, timeout, self.logs()))
            time.sleep(0.5)
