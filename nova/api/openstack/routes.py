"""The route table: every path below /v2.1 (optionally /v2.1/{project_id})
and the handler of each of its methods."""
from nova.api.openstack.compute import aggregates
from nova.api.openstack.compute import flavor_extra_specs
from nova.api.openstack.compute import flavor_access
from nova.api.openstack.compute import flavors
from nova.api.openstack.compute import host_health
from nova.api.openstack.compute import host_maintenance
from nova.api.openstack.compute import host_status_events
from nova.api.openstack.compute import instance_actions
from nova.api.openstack.compute import keypairs
from nova.api.openstack.compute import migrations
from nova.api.openstack.compute import server_actions
from nova.api.openstack.compute import server_groups
from nova.api.openstack.compute import server_tags
from nova.api.openstack.compute import servers
from nova.api.openstack.compute import services


def route_declarations():
    """{URL template: {method: handler}}, with a controller made for each resource."""
    server = servers.ServersController()
    service = services.ServicesController()
    flavor = flavors.FlavorsController()
    window = host_maintenance.HostMaintenanceController()
    tags = server_tags.ServerTagsController()
    specs = flavor_extra_specs.FlavorExtraSpecsController()
    aggregate = aggregates.AggregatesController()
    access = flavor_access.FlavorAccessController()
    keypair = keypairs.KeypairsController()
    group = server_groups.ServerGroupsController()
    actions = instance_actions.InstanceActionsController()
    return {
        '/servers': {'GET': server.index, 'POST': server.create},
        '/servers/detail': {'GET': server.detail},
        '/servers/{server_id}': {'GET': server.show, 'PUT': server.update,
                                 'DELETE': server.delete},
        '/servers/{server_id}/tags': {'GET': tags.index, 'PUT': tags.update_all,
                                      'DELETE': tags.delete_all},
        '/servers/{server_id}/tags/{tag}': {'GET': tags.show, 'PUT': tags.update,
                                            'DELETE': tags.delete},
        '/servers/{server_id}/host-health': {'GET': host_health.HostHealthController().show},
        '/servers/{server_id}/os-instance-actions': {'GET': actions.index},
        '/servers/{server_id}/os-instance-actions/{request_id}': {'GET': actions.show},
        '/servers/{server_id}/action': {'POST': server_actions.ServerActionsController().action},
        '/os-services': {'GET': service.index},
        '/os-services/{service_id}': {'PUT': service.update, 'DELETE': service.delete},
        '/flavors': {'GET': flavor.index, 'POST': flavor.create},
        '/flavors/detail': {'GET': flavor.detail},
        '/flavors/{flavor_id}': {'GET': flavor.show, 'PUT': flavor.update,
                                 'DELETE': flavor.delete},
        '/flavors/{flavor_id}/os-flavor-access': {'GET': access.index},
        '/flavors/{flavor_id}/action': {'POST': access.action},
        '/flavors/{flavor_id}/os-extra_specs': {'GET': specs.index, 'POST': specs.create},
        '/flavors/{flavor_id}/os-extra_specs/{key}': {'GET': specs.show, 'PUT': specs.update,
                                                      'DELETE': specs.delete},
        '/os-aggregates': {'GET': aggregate.index, 'POST': aggregate.create},
        '/os-aggregates/{aggregate_id}': {'GET': aggregate.show, 'PUT': aggregate.update,
                                          'DELETE': aggregate.delete},
        '/os-aggregates/{aggregate_id}/action': {'POST': aggregate.action},
        '/os-keypairs': {'GET': keypair.index, 'POST': keypair.create},
        '/os-keypairs/{keypair_name}': {'GET': keypair.show, 'DELETE': keypair.delete},
        '/os-server-groups': {'GET': group.index, 'POST': group.create},
        '/os-server-groups/{server_group_id}': {'GET': group.show, 'DELETE': group.delete},
        '/os-server-groups/{server_group_id}/host-status': {'GET': group.host_status},
        '/os-migrations': {'GET': migrations.MigrationsController().index},
        '/os-host-status-events': {'GET': host_status_events.HostStatusEventsController().index},
        '/os-host-maintenance': {'GET': window.index, 'POST': window.create},
        '/os-host-maintenance/{maintenance_id}': {'GET': window.show, 'PUT': window.update,
                                                  'DELETE': window.delete},
    }
