"""Keypairs: generated (the private half handed back once, never kept) or
imported (the public key checked), fingerprinted as Nova does: MD5 of an
ssh key's blob, SHA-1 of an x509 certificate, colon-separated hex."""
import base64
import binascii
import datetime
import hashlib

from cryptography import exceptions as crypto_exc
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from nova import exception
from nova.db import keypairs as db

SSH = 'ssh'
X509 = 'x509'
TYPES = (SSH, X509)
_BITS = 2048
_CERT_DAYS = 3650


def _colons(digest):
    text = binascii.hexlify(digest).decode('ascii')
    return ':'.join(text[i:i + 2] for i in range(0, len(text), 2))


def ssh_fingerprint(public_key):
    """MD5 of the key blob of an OpenSSH public key line; InvalidKeypair
    when the line is not one."""
    try:
        serialization.load_ssh_public_key(public_key.encode('utf-8'))
        blob = base64.b64decode(public_key.split(' ')[1])
    except (ValueError, TypeError, IndexError, binascii.Error,
            UnicodeError, NotImplementedError, crypto_exc.UnsupportedAlgorithm):
        raise exception.InvalidKeypair(reason='failed to generate fingerprint')
    return _colons(hashlib.md5(blob, usedforsecurity=False).digest())


def x509_fingerprint(pem):
    """SHA-1 of a PEM certificate; InvalidKeypair when it is not one."""
    try:
        cert = x509.load_pem_x509_certificate(pem.encode('utf-8'))
    except (ValueError, TypeError, UnicodeError, crypto_exc.UnsupportedAlgorithm) as exc:
        raise exception.InvalidKeypair(
            reason='failed to generate X509 fingerprint. Error message: %s' % exc)
    return _colons(cert.fingerprint(hashes.SHA1()))


def fingerprint(public_key, key_type):
    return ssh_fingerprint(public_key) if key_type == SSH else x509_fingerprint(public_key)


def _ssh_pair():
    key = rsa.generate_private_key(public_exponent=65537, key_size=_BITS)
    private = key.private_bytes(serialization.Encoding.PEM,
                                serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption()).decode('ascii')
    public = key.public_key().public_bytes(serialization.Encoding.OpenSSH,
                                           serialization.PublicFormat.OpenSSH).decode('ascii')
    return private, public + ' Generated-by-Nova'


def _x509_pair(user_id):
    """A self-signed client certificate for ``user_id`` (WinRM's kind) and
    its key and certificate as base64 PKCS#12 without a password."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=_BITS)
    # a common name holds at most 64 characters (Keystone's user ids: 32)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, user_id[:64])])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder()
            .subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=_CERT_DAYS))
            .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.CLIENT_AUTH]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    bundle = pkcs12.serialize_key_and_certificates(None, key, cert, None,
                                                   serialization.NoEncryption())
    return (base64.b64encode(bundle).decode('ascii'),
            cert.public_bytes(serialization.Encoding.PEM).decode('ascii'))


def generate(user_id, name, key_type=SSH):
    """Make a keypair; returns (its row, the private key), the private key
    kept nowhere."""
    private, public = _ssh_pair() if key_type == SSH else _x509_pair(user_id)
    row = db.create(user_id, name, key_type, public, fingerprint(public, key_type))
    return row, private


def import_public(user_id, name, public_key, key_type=SSH):
    """Keep a public key the user sent; InvalidKeypair when it is not one."""
    return db.create(user_id, name, key_type, public_key, fingerprint(public_key, key_type))


get = db.get
page = db.page
delete = db.destroy
