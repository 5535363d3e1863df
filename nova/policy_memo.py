"""oslo.policy's Enforcer with two savings that change no decision.

Measured reason (benchmarks/README.rst, "Policy decisions"): oslo.policy
walks a rule's tree at every check, about 40 us a check, mostly argument
introspection per node, and looks for changed policy files at every check
(a dozen stat() calls). A servers/detail request asks three to five
questions, so on small pages that was 10% of the request.

* The policy files are looked at once per request (nova.policy does that
  before a request's first check); checks inside it rely on that look.
  The look is a stat() of every place oslo.policy searches for them (and
  of what a policy directory holds); oslo.policy's own load, which
  searches the configuration directories and walks every registered
  default, runs only when one of those changed (it was some 15% of a
  show's CPU time in-process: benchmarks/README.rst, session 11).
* A decision whose rule tree holds only pure checks (answers that depend on
  nothing but the target and the credentials: not http:, not checks that
  plugins register) is remembered per (action, target, credentials) until
  the rules change.
"""
import os
import stat
import threading

from oslo_config import cfg
from oslo_policy import policy as oslo_policy

try:
    from oslo_policy import _checks as _oslo_checks
    _PURE_LEAVES = (_oslo_checks.TrueCheck, _oslo_checks.FalseCheck,
                    _oslo_checks.RoleCheck, _oslo_checks.GenericCheck)
except (ImportError, AttributeError):   # renamed upstream: decide everything afresh
    _PURE_LEAVES = ()
try:
    _config_dirs = cfg._get_config_dirs     # the standard directories find_file searches
except AttributeError:     # renamed upstream: oslo.policy looks every time
    _config_dirs = None
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


def _absolute(path):
    return os.path.abspath(os.path.expanduser(path))


def _looked_at(path):
    """What of ``path`` (a file, or a directory and its files) a load reads."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    seen = (found.st_mtime_ns, found.st_size, found.st_ino)
    if not stat.S_ISDIR(found.st_mode):
        return seen
    try:
        names = sorted(os.listdir(path))
    except OSError:
        return seen
    return seen, tuple(_looked_at(os.path.join(path, name)) for name in names)


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
        self._loaded = self._places_of = None     # (files, rules) of the last load
        super().__init__(*args, **kwargs)

    def load_rules(self, force_reload=False):
        if not force_reload and getattr(checking, 'active', False):
            return
        # read before the load: a change during it shows at the next look
        files = self._policy_files()
        loaded = self._loaded
        if (force_reload or files is None or loaded is None or files != loaded[0]
                or self.rules is not loaded[1]):
            super().load_rules(force_reload)
            self._loaded = (files, self.rules)

    def _policy_files(self):
        """What every place oslo.policy's load reads or searches looks like
        to stat(), with what it registered; None when that cannot be told."""
        if _config_dirs is None or not self.use_conf:
            return None
        return (len(self.registered_rules),) + tuple(map(_looked_at, self._places()))

    def _places(self):
        # where find_file would look: the configuration's own directories
        # first, then the standard ones (none of which change while it runs)
        key = (self.policy_file, tuple(self.conf.oslo_policy.policy_dirs))
        cached = self._places_of      # one attribute: threads share the enforcer
        if cached is None or cached[0] != key:
            conf = self.conf
            dirs = [_absolute(d) for d in conf.config_dirs]
            dirs += [os.path.dirname(_absolute(f)) for f in reversed(conf.config_file)]
            dirs += _config_dirs(conf.project)
            places = []
            for name in map(os.path.expanduser, key[:1] + key[1]):
                places += [name] if os.path.isabs(name) else [os.path.join(d, name) for d in dirs]
            self._places_of = cached = (key, tuple(dict.fromkeys(places)))
        return cached[1]

    def set_rules(self, rules, overwrite=True, use_conf=False):
        super().set_rules(rules, overwrite=overwrite, use_conf=use_conf)
        self.decisions = {}
        self._loaded = None

    def clear(self):
        super().clear()
        self.decisions = {}
        self._loaded = None

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
