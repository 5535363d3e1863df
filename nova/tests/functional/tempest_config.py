"""tempest.conf and its accounts file for tempest's compute API tests
against an all-in-one behind a real Keystone, written by the test
(test_tempest.py), never kept by hand.

Tempest is told what the API serves and nothing more: the compute service
(Keystone's catalog has no image, network, volume or object service),
pre-provisioned accounts (no dynamic credentials: tempest creates no users,
projects or networks), microversions from 2.1 to the API's maximum, and
every compute feature it does not serve switched off, so that the tests
for those skip instead of failing. Image and flavor references are the
ones the all-in-one accepts (its one image, flavors 1 and 2).
"""
import os

# [compute-feature-enabled]: what the API serves (True) and does not
# (False). Server actions served: os-stop, os-start, reboot, lock, unlock,
# os-resetState, evacuate.
FEATURES = {
    'disk_config': True,             # OS-DCF:diskConfig kept and shown
    'enable_instance_password': True,  # adminPass on create
    'config_drive': True,            # accepted on create and shown
    'change_password': False,
    'console_output': False,
    'resize': False,
    'pause': False,
    'shelve': False,
    'shelve_migrate': False,
    'suspend': False,
    'cold_migration': False,
    'live_migration': False,
    'metadata_service': False,
    'vnc_console': False,
    'spice_console': False,
    'serial_console': False,
    'rescue': False,
    'interface_attach': False,
    'snapshot': False,
    'personality': False,
    'attach_encrypted_volume': False,
    'swap_volume': False,
    'volume_multiattach': False,
    'unified_limits': False,
}
# Image and network services said to be there, with no endpoint in the
# catalog, only so that tempest's compute classes set up: tempest 47's
# admin base class (BaseV2ComputeAdminTest.setup_clients) takes an image
# client whether or not glance is there (without one every admin class
# fails in setUpClass), and the server classes that ask for a default
# network (create_default_network: servers, their negative tests, tags,
# delete, list, disk config, multiple create, admin servers) skip without
# neutron; with pre-provisioned accounts they boot without one. The few
# tests that would call either service are excluded (tempest_exclude.txt,
# "needs the image service", "needs the network service").
SERVICES = {'nova': True, 'glance': True, 'neutron': True, 'cinder': False,
            'swift': False, 'horizon': False}


def accounts_yaml(accounts, password, domain='Default'):
    """tempest's accounts file: ``accounts`` is [(user, project, roles)];
    the role ``admin`` makes the account tempest's admin."""
    lines = []
    for user, project, roles in accounts:
        lines += ["- username: '%s'" % user, "  project_name: '%s'" % project,
                  "  password: '%s'" % password, "  user_domain_name: '%s'" % domain,
                  "  project_domain_name: '%s'" % domain]
        if 'admin' in roles:
            lines += ['  types:', '    - admin']
        else:
            lines += ['  roles:'] + ['    - %s' % role for role in roles]
    return '\n'.join(lines) + '\n'


def _section(name, options):
    return '[%s]\n%s' % (name, ''.join('%s = %s\n' % item for item in options.items()))


def write(directory, keystone_url, region, accounts, password, image, flavors,
          max_microversion, compute_nodes):
    """tempest.conf (and accounts.yaml, logs and locks) in ``directory``;
    returns the config file's path. ``flavors``: (flavor_ref,
    flavor_ref_alt); ``compute_nodes``: how many hosts the all-in-one
    runs."""
    accounts_file = os.path.join(directory, 'accounts.yaml')
    with open(accounts_file, 'w') as f:
        f.write(accounts_yaml(accounts, password))
    sections = [
        ('DEFAULT', {'log_dir': directory, 'log_file': 'tempest.log',
                     'use_stderr': False}),
        ('oslo_concurrency', {'lock_path': os.path.join(directory, 'locks')}),
        ('auth', {'use_dynamic_credentials': False, 'test_accounts_file': accounts_file,
                  'default_credentials_domain_name': 'Default',
                  'create_isolated_networks': False}),
        ('identity', {'uri_v3': keystone_url, 'auth_version': 'v3', 'region': region,
                      'disable_ssl_certificate_validation': True}),
        ('identity-feature-enabled', {'api_v2': False}),
        ('service_available', SERVICES),
        ('compute', {'image_ref': image, 'image_ref_alt': image,
                     'flavor_ref': flavors[0], 'flavor_ref_alt': flavors[1],
                     'min_microversion': '2.1', 'max_microversion': max_microversion,
                     'region': region, 'build_timeout': 60, 'build_interval': 1,
                     'min_compute_nodes': compute_nodes}),
        ('compute-feature-enabled', FEATURES),
        ('validation', {'run_validation': False}),
    ]
    path = os.path.join(directory, 'tempest.conf')
    with open(path, 'w') as f:
        f.write('\n'.join(_section(name, options) for name, options in sections))
    return path
