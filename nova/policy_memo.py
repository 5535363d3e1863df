"""oslo.policy's Enforcer with two savings that change no decision.

Measured reason (benchmarks/README.rst, "Policy decisions"): oslo.policy
walks a rule's tree at every check, about 40 us a check, mostly argument
introspection per node, and looks for changed policy files at every check
(a dozen stat() calls). A servers/detail request asks three to five
questions, so on small pages that was 10% of the request.

* The policy files are looked at once per request (nova.policy does that
  before a request's first check); checks inside it rely on that look.
* A decision whose rule tree holds only pure checks (answers that depend on
  nothing but the target and the credentials: not http:, not checks that
  plugins register) is remembered per (action, target, credentials) until
  the rules change.
"""
import threading

from oslo_policy import policy as oslo_policy

try:
    from oslo_policy import _checks as _oslo_checks
    _PURE_LEAVES = (_oslo_checks.TrueCheck, _oslo_checks.FalseCheck,
                    _oslo_checks.RoleCheck, _oslo_checks.GenericCheck)
except (ImportError, AttributeError):   # renamed upstream: decide everything afresh
    _PURE_LEAVES = ()
_MAX_DECISIONS = 10000

checking = threading.local()    # .active: inside a check of the current request


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


def frozen(mapping):
    """A hashable form of a target or of credentials."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                        for k, v in mapping.items()))


def _hashable(key):
    try:
        hash(key)
    except TypeError:      # odd values in a target or credentials: not remembered
        return None
    return key


class RememberingEnforcer(oslo_policy.Enforcer):

    def __init__(self, *args, **kwargs):
        self.decisions = {}
        self._decided_with = None
        super().__init__(*args, **kwargs)

    def load_rules(self, force_reload=False):
        if not force_reload and getattr(checking, 'active', False):
            return
        super().load_rules(force_reload)

    def set_rules(self, rules, overwrite=True, use_conf=False):
        super().set_rules(rules, overwrite=overwrite, use_conf=use_conf)
        self.decisions = {}

    def clear(self):
        super().clear()
        self.decisions = {}

    def decide(self, action, target, creds, creds_key):
        """authorize() without raising; remembered where that is safe."""
        if self.rules is not self._decided_with:
            # oslo.policy sometimes replaces its rules without set_rules()
            self.decisions = {}
            self._decided_with = self.rules
        key = _hashable((action, frozen(target), creds_key))
        if key is not None and key in self.decisions:
            return self.decisions[key]
        checking.active = True
        try:
            allowed = self.authorize(action, target, creds, do_raise=False)
        finally:
            checking.active = False
        rule = self.rules.get(action)
        if key is not None and rule is not None and _is_pure(rule, self.rules):
            if len(self.decisions) >= _MAX_DECISIONS:
                self.decisions = {}
            self.decisions[key] = allowed
        return allowed
