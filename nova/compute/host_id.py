"""hostId: what a project's users see of a host's name."""
import hashlib


def host_id(project_id, host):
    """Opaque per-project host id: same host, same project → same value."""
    if not host:
        return ''
    return hashlib.sha224((project_id + host).encode('utf-8')).hexdigest()
