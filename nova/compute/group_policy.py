"""What a server group's policy asks of a host, as Nova's scheduler has it
(ServerGroupAntiAffinityFilter, ServerGroupAffinityFilter and the two soft
weighers, all in Nova's default set): pure functions of the policy, its
rules and how many of the group's other members each host holds."""
import collections

AFFINITY = 'affinity'
ANTI_AFFINITY = 'anti-affinity'
SOFT_AFFINITY = 'soft-affinity'
SOFT_ANTI_AFFINITY = 'soft-anti-affinity'
POLICIES_V21 = (ANTI_AFFINITY, AFFINITY)
POLICIES = POLICIES_V21 + (SOFT_ANTI_AFFINITY, SOFT_AFFINITY)
MAX_SERVER_PER_HOST = 'max_server_per_host'

_VIOLATED = {ANTI_AFFINITY: 'Anti-affinity instance group policy was violated.',
             AFFINITY: 'Affinity instance group policy was violated.'}


class Placement:
    """A group as one placement sees it: ``policy``, ``rules`` and
    ``hosts`` ({host: the group's other members there})."""

    def __init__(self, policy, rules=None, hosts=None):
        self.policy = policy
        self.rules = rules or {}
        self.hosts = collections.Counter(hosts or {})

    def allows(self, host):
        """Hard policies filter: anti-affinity keeps fewer than
        max_server_per_host (1 unless set) members on a host; affinity
        keeps every member on a host that has one, once one has."""
        if self.policy == ANTI_AFFINITY:
            return self.hosts[host] < int(self.rules.get(MAX_SERVER_PER_HOST, 1))
        if self.policy == AFFINITY:
            return not self.hosts or self.hosts[host] > 0
        return True

    def weight(self, host):
        """Soft policies only prefer: fewer members first (soft
        anti-affinity), more members first (soft affinity)."""
        if self.policy == SOFT_ANTI_AFFINITY:
            return self.hosts[host]
        if self.policy == SOFT_AFFINITY:
            return -self.hosts[host]
        return 0

    def place(self, host):
        self.hosts[host] += 1

    def violation(self, host):
        """None when a member may go to ``host``; otherwise why not (the
        destination's late check)."""
        return None if self.allows(host) else _VIOLATED[self.policy]

    def accepts(self, hosts):
        """Whether the members to be created on ``hosts`` (in order) all
        fit, one after the other."""
        for host in hosts:
            if not self.allows(host):
                return False
            self.place(host)
        return True
