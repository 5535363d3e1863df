"""The policy enforcer. policy.yaml is re-read when its mtime changes, so an
operator's edit takes effect on the next request without a restart: the
files are looked at once per request (per context), not at every check."""
import threading

import nova.conf
from nova import exception
from nova import policies
from nova import policy_memo

CONF = nova.conf.CONF
_ENFORCER = None
_lock = threading.Lock()
_request = threading.local()    # .context: rules looked at for it, .creds, .creds_key


def init(conf=CONF):
    global _ENFORCER
    if _ENFORCER is None:
        with _lock:
            if _ENFORCER is None:
                enforcer = policy_memo.RememberingEnforcer(conf)
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


def _check(context, action, target):
    enforcer = init()
    if getattr(_request, 'context', None) is not context:
        enforcer.load_rules()       # re-reads policy files whose mtime changed
        _request.context = context
        # what oslo.policy would derive from the context at every check
        _request.creds = dict(context.to_policy_values())
        _request.creds_key = policy_memo.frozen(_request.creds)
    return enforcer.decide(action, target, _request.creds, _request.creds_key)


def authorize(context, action, target, fatal=True):
    """True when allowed; with fatal, PolicyNotAuthorized otherwise."""
    allowed = _check(context, action, target)
    if not allowed and fatal:
        raise exception.PolicyNotAuthorized(action=action)
    return allowed


def check_is_admin(context):
    return _check(context, 'context_is_admin', {})
