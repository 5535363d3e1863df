"""Policy in code; ``oslopolicy-sample-generator --namespace nova`` reads it."""
import itertools

from nova.policies import aggregates
from nova.policies import base
from nova.policies import flavor_extra_specs
from nova.policies import flavor_access
from nova.policies import flavor_manage
from nova.policies import host_health
from nova.policies import host_maintenance
from nova.policies import host_status_events
from nova.policies import instance_actions
from nova.policies import keypairs
from nova.policies import migrations
from nova.policies import server_actions
from nova.policies import server_groups
from nova.policies import server_tags
from nova.policies import servers
from nova.policies import services


def list_rules():
    return list(itertools.chain(base.list_rules(), servers.list_rules(),
                                services.list_rules(), host_status_events.list_rules(),
                                host_maintenance.list_rules(), host_health.list_rules(),
                                server_tags.list_rules(), server_actions.list_rules(),
                                aggregates.list_rules(), flavor_extra_specs.list_rules(),
                                flavor_manage.list_rules(), flavor_access.list_rules(),
                                keypairs.list_rules(), migrations.list_rules(),
                                server_groups.list_rules(), instance_actions.list_rules()))
