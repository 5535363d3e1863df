"""The policy enforcer. policy.yaml is re-read when its mtime changes, so an
operator's edit takes effect on the next request without a restart."""
import threading

from oslo_policy import policy as oslo_policy

import nova.conf
from nova import policies
from nova.api.openstack import faults

CONF = nova.conf.CONF
_ENFORCER = None
_lock = threading.Lock()


def init(conf=CONF):
    global _ENFORCER
    if _ENFORCER is None:
        with _lock:
            if _ENFORCER is None:
                enforcer = oslo_policy.Enforcer(conf)
                enforcer.register_defaults(policies.list_rules())
                enforcer.load_rules()
                _ENFORCER = enforcer
    return _ENFORCER


def reset():
    global _ENFORCER
    with _lock:
        if _ENFORCER is not None:
            _ENFORCER.clear()
        _ENFORCER = None


def get_enforcer():
    """For the oslopolicy-* tools (entry point oslo.policy.enforcer)."""
    CONF([], project='nova', default_config_files=[])
    return init()


def authorize(context, action, target, fatal=True):
    """True when allowed; with fatal, a 403 fault otherwise."""
    allowed = init().authorize(action, target, context, do_raise=False)
    if not allowed and fatal:
        raise faults.PolicyNotAuthorized(action)
    return allowed


def check_is_admin(context):
    return init().authorize('context_is_admin', {}, context, do_raise=False)
