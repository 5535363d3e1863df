"""The policy enforcer. policy.yaml is re-read when its mtime changes, so an
operator's edit takes effect on the next request without a restart: the
files are looked at once per request (per context), not at every check."""
import threading

from oslo_policy import policy as oslo_policy

import nova.conf
from nova import policies
from nova.api.openstack import faults

CONF = nova.conf.CONF
_ENFORCER = None
_lock = threading.Lock()
_request = threading.local()    # .context: rules looked at for it, .creds; .checking

try:
    from oslo_policy import _checks as _oslo_checks
    # Leaves whose answer depends on nothing but the target and credentials
    # (not http:, not checks registered by plugins).
    _PURE_LEAVES = (_oslo_checks.TrueCheck, _oslo_checks.FalseCheck,
                    _oslo_checks.RoleCheck, _oslo_checks.GenericCheck)
except (ImportError, AttributeError):   # renamed upstream: decide everything afresh
    _PURE_LEAVES = ()
_MAX_DECISIONS = 10000


def _is_pure(check, rules, seen=()):
    """Is the decision of ``check`` a function of (target, creds) alone?"""
    if isinstance(check, (oslo_policy.AndCheck, oslo_policy.OrCheck)):
        return all(_is_pure(c, rules, seen) for c in check.rules)
    if isinstance(check, oslo_policy.NotCheck):
        return _is_pure(check.rule, rules, seen)
    if isinstance(check, oslo_policy.RuleCheck):
        name = check.match
        if name in seen:
            return False
        return name not in rules or _is_pure(rules[name], rules, seen + (name,))
    return type(check) in _PURE_LEAVES


def _frozen(mapping):
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                        for k, v in mapping.items()))


def _hashable(key):
    try:
        hash(key)
    except TypeError:      # odd values in a target or credentials: not remembered
        return None
    return key


class _Enforcer(oslo_policy.Enforcer):
    """oslo.policy's Enforcer, plus two savings that change no decision.

    It looks for changed policy files at every check (a dozen stat()
    calls); inside authorize() below it relies on the look taken once for
    the request instead. And oslo.policy walks a rule's tree for every
    check (about 40 us, mostly argument introspection per node); a decision
    whose rule tree holds only pure checks is remembered per (action,
    target, credentials) until the rules change.
    """

    def __init__(self, *args, **kwargs):
        self.decisions = {}
        self._decided_with = None
        super().__init__(*args, **kwargs)

    def load_rules(self, force_reload=False):
        if not force_reload and getattr(_request, 'checking', False):
            return
        super().load_rules(force_reload)

    def set_rules(self, rules, overwrite=True, use_conf=False):
        super().set_rules(rules, overwrite=overwrite, use_conf=use_conf)
        self.decisions = {}

    def clear(self):
        super().clear()
        self.decisions = {}

    def decide(self, action, target, creds, creds_key):
        if self.rules is not self._decided_with:
            # oslo.policy sometimes replaces its rules without set_rules()
            self.decisions = {}
            self._decided_with = self.rules
        key = _hashable((action, _frozen(target), creds_key))
        if key is not None and key in self.decisions:
            return self.decisions[key]
        allowed = self.authorize(action, target, creds, do_raise=False)
        rule = self.rules.get(action)
        if key is not None and rule is not None and _is_pure(rule, self.rules):
            if len(self.decisions) >= _MAX_DECISIONS:
                self.decisions = {}
            self.decisions[key] = allowed
        return allowed


def init(conf=CONF):
    global _ENFORCER
    if _ENFORCER is None:
        with _lock:
            if _ENFORCER is None:
                enforcer = _Enforcer(conf)
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
        _request.creds_key = _frozen(_request.creds)
    _request.checking = True
    try:
        return enforcer.decide(action, target, _request.creds, _request.creds_key)
    finally:
        _request.checking = False


def authorize(context, action, target, fatal=True):
    """True when allowed; with fatal, a 403 fault otherwise."""
    allowed = _check(context, action, target)
    if not allowed and fatal:
        raise faults.PolicyNotAuthorized(action)
    return allowed


def check_is_admin(context):
    return _check(context, 'context_is_admin', {})
