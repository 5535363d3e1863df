"""Entry point for oslo-config-generator --namespace nova."""
import collections

import nova.conf


def list_opts():
    by_group = collections.defaultdict(list)
    for module in nova.conf.MODULES:
        for group, opts in module.list_opts().items():
            name = group if isinstance(group, str) else group.name
            by_group[name].extend(opts)
    return sorted(by_group.items())
