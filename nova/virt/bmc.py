"""A simulated BMC that speaks Redfish: one ComputerSystem, the host it
belongs to, with ``PowerState`` and the ``ComputerSystem.Reset`` action
(ForceOff, On, ForceRestart, GracefulShutdown, PowerCycle), over HTTPS with
HTTP basic auth, as Debian's ``fence_redfish`` and other Redfish clients
expect. A power change is applied before the action answers, so the next
read of ``PowerState`` is the truth.

``power`` is what the BMC drives: an object with ``state()`` (``On`` or
``Off``), ``off()`` and ``on()``. ``fault()`` (optional) names a fault to
simulate on each request: ``500`` (every request fails), ``hang`` (no
answer at all) or ``refuse-off`` (ForceOff answers 400 and changes
nothing), for drills of a BMC that fails.
"""
import base64
import datetime
import hmac
import http.server
import ipaddress
import json
import logging
import os
import ssl
import threading

LOG = logging.getLogger(__name__)
ROOT = '/redfish/v1'
SYSTEMS = ROOT + '/Systems'
RESET_TYPES = ('On', 'ForceOff', 'ForceRestart', 'GracefulShutdown', 'PowerCycle')
FAULTS = ('500', 'hang', 'refuse-off')


def self_signed(cert_path, key_path, address):
    """Write a self-signed certificate and its key for ``address`` (an IP
    address) unless both exist."""
    if os.path.exists(cert_path) and os.path.exists(key_path):
        return
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, 'nova-all-in-one BMC')])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address(address))]), critical=False)
            .sign(key, hashes.SHA256()))
    with open(key_path, 'wb') as f:
        os.fchmod(f.fileno(), 0o600)
        f.write(key.private_bytes(serialization.Encoding.PEM,
                                  serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    with open(cert_path, 'wb') as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))


def _error(code, message):
    return {'error': {'code': 'Base.1.0.' + code, 'message': message}}


class _Handler(http.server.BaseHTTPRequestHandler):
    server_version = 'nova-simulated-bmc'
    protocol_version = 'HTTP/1.1'

    def log_message(self, fmt, *args):
        LOG.debug('%s: ' + fmt, self.server.bmc.system_id, *args)

    def _send(self, status, body=None):
        data = b'' if body is None else json.dumps(body).encode()
        self.send_response(status)
        if body is not None:
            self.send_header('Content-Type', 'application/json')
        if status == 401:
            self.send_header('WWW-Authenticate', 'Basic realm="simulated BMC"')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _authorized(self):
        bmc = self.server.bmc
        expected = base64.b64encode(('%s:%s' % (bmc.username, bmc.password)).encode())
        given = self.headers.get('Authorization', '')
        return given.startswith('Basic ') and hmac.compare_digest(
            given[6:].strip().encode(), expected)

    def _begin(self):
        """False when the request is answered already (fault, auth)."""
        bmc = self.server.bmc
        fault = bmc.fault() if bmc.fault else None
        if fault == 'hang':
            bmc.stopping.wait()
            self.close_connection = True
            return False
        if fault == '500':
            self._send(500, _error('InternalError', 'simulated BMC failure'))
            return False
        if not self._authorized():
            self._send(401, _error('InsufficientPrivilege', 'authentication required'))
            return False
        return True

    def do_GET(self):
        if not self._begin():
            return
        bmc = self.server.bmc
        path = self.path.split('?')[0].rstrip('/')
        if path == ROOT:
            self._send(200, {'@odata.id': ROOT, '@odata.type': '#ServiceRoot.v1_5_0.ServiceRoot',
                             'Id': 'RootService', 'Name': 'Root Service',
                             'RedfishVersion': '1.6.0',
                             'Systems': {'@odata.id': SYSTEMS}})
        elif path == SYSTEMS:
            self._send(200, {'@odata.id': SYSTEMS,
                             '@odata.type': '#ComputerSystemCollection.ComputerSystemCollection',
                             'Name': 'Computer System Collection', 'Members@odata.count': 1,
                             'Members': [{'@odata.id': bmc.system_path}]})
        elif path == bmc.system_path:
            self._send(200, bmc.system())
        else:
            self._send(404, _error('ResourceMissingAtURI', '%s is not here' % path))

    def do_POST(self):
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length) if length else b''
        if not self._begin():
            return
        bmc = self.server.bmc
        path = self.path.split('?')[0].rstrip('/')
        if path != bmc.reset_path:
            self._send(404, _error('ResourceMissingAtURI', '%s is not here' % path))
            return
        try:
            reset_type = json.loads(raw or b'{}').get('ResetType')
        except (ValueError, AttributeError):
            reset_type = None
        if reset_type not in RESET_TYPES:
            self._send(400, _error('ActionParameterNotSupported',
                                   'ResetType must be one of %s' % ', '.join(RESET_TYPES)))
            return
        if reset_type in ('ForceOff', 'GracefulShutdown') and bmc.fault and \
                bmc.fault() == 'refuse-off':
            self._send(400, _error('ActionNotSupported', 'simulated: this BMC cannot power off'))
            return
        bmc.reset(reset_type)
        self._send(204)


class RedfishBMC:
    """The BMC of one simulated host, served on its own thread."""

    def __init__(self, system_id, power, username, password, bind, port, certfile,
                 keyfile, fault=None):
        self.system_id = system_id
        self.power = power
        self.username = username
        self.password = password
        self.fault = fault
        self.system_path = '%s/%s' % (SYSTEMS, system_id)
        self.reset_path = self.system_path + '/Actions/ComputerSystem.Reset'
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self.httpd = http.server.ThreadingHTTPServer((bind, port), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.bmc = self
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certfile, keyfile)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.address, self.port = self.httpd.server_address[:2]
        self._thread = None

    @property
    def url(self):
        host = self.address if ':' not in self.address else '[%s]' % self.address
        return 'https://%s:%d%s' % (host, self.port, self.system_path)

    def start(self):
        self._thread = threading.Thread(target=self.httpd.serve_forever,
                                        name='bmc-' + self.system_id, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def system(self):
        return {
            '@odata.id': self.system_path,
            '@odata.type': '#ComputerSystem.v1_10_0.ComputerSystem',
            'Id': self.system_id, 'Name': self.system_id, 'HostName': self.system_id,
            'SystemType': 'Physical', 'Manufacturer': 'nova-all-in-one',
            'Model': 'simulated compute host',
            'PowerState': self.power.state(),
            'Status': {'State': 'Enabled', 'Health': 'OK'},
            'Actions': {'#ComputerSystem.Reset': {
                'target': self.reset_path,
                'ResetType@Redfish.AllowableValues': list(RESET_TYPES)}},
        }

    def reset(self, reset_type):
        """Apply a Reset before answering it."""
        with self._lock:
            LOG.warning('BMC of %s: %s', self.system_id, reset_type)
            if reset_type in ('ForceOff', 'GracefulShutdown'):
                self.power.off()
            elif reset_type == 'On':
                self.power.on()
            else:       # ForceRestart, PowerCycle: off, then on again
                self.power.off()
                self.power.on()
