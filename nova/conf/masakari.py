"""[masakari]: how the host-status watcher reaches OpenStack Masakari
(keystoneauth's auth, session and adapter options, as Nova's [neutron] or
[placement] groups; service type instance-ha)."""
from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

GROUP = 'masakari'
masakari_group = cfg.OptGroup(
    GROUP, title='OpenStack Masakari',
    help='Where the host-status watcher sends COMPUTE_HOST notifications when '
         '[host_status_watcher] notify_masakari is set.')


def register_opts(conf):
    conf.register_group(masakari_group)
    ks_loading.register_session_conf_options(conf, GROUP)
    ks_loading.register_auth_conf_options(conf, GROUP)
    ks_loading.register_adapter_conf_options(conf, GROUP, include_deprecated=False)
    conf.set_default('service_type', 'instance-ha', group=GROUP)


def list_opts():
    opts = (ks_loading.get_session_conf_options()
            + ks_loading.get_auth_common_conf_options()
            + ks_loading.get_auth_plugin_conf_options('password')
            + ks_loading.get_adapter_conf_options(include_deprecated=False))
    return {masakari_group: opts}
