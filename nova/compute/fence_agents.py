"""Fence agents: which one powers each compute host off, and running it.

The fencing file ([fencing] config_file) names an agent and its options
per host, as Red Hat InstanceHA's fencing.yaml does::

    hosts:
      compute-1:
        agent: fence_redfish          # a program on PATH, or a path
        timeout: 30                   # seconds per run ([fencing] agent_timeout)
        options: {ip: 10.0.0.11, username: admin, password: secret,
                  ssl_insecure: 1, systems_uri: /redfish/v1/Systems/1}

An agent runs as the external program it is, with the fence-agents
interface: one ``key=value`` a line on stdin (``action=off``, the
options), and its exit code as the answer (``off``/``on``: 0 done;
``status``: 0 on, 2 off, anything else unknown).
"""
import collections
import os
import shutil
import signal
import subprocess

import yaml

STATUS_ON = 0
STATUS_OFF = 2

HostAgent = collections.namedtuple('HostAgent', 'host agent path options timeout')
Result = collections.namedtuple('Result', 'code output timed_out')


class FencingConfigError(Exception):
    """Bad fencing configuration: the message names the host and the key."""


def _agent_path(agent):
    if os.sep in agent:
        return agent if os.path.isfile(agent) and os.access(agent, os.X_OK) else None
    return shutil.which(agent, path=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')


def load(path, default_timeout):
    """{host: HostAgent} from the fencing file at ``path``; raises
    FencingConfigError naming the host and key of the first mistake."""
    if not path:
        raise FencingConfigError('[fencing] config_file is not set: no agent for any host')
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
    except OSError as exc:
        raise FencingConfigError('[fencing] config_file %s: %s' % (path, exc.strerror))
    except yaml.YAMLError as exc:
        raise FencingConfigError('[fencing] config_file %s is not YAML: %s' % (path, exc))
    hosts = (data or {}).get('hosts') if isinstance(data or {}, dict) else None
    if not isinstance(hosts, dict):
        raise FencingConfigError('%s: needs a mapping "hosts" of host name to agent' % path)
    agents = {}
    for host, entry in hosts.items():
        where = '%s: host %s' % (path, host)
        if not isinstance(entry, dict):
            raise FencingConfigError('%s: the entry must be a mapping with agent and options'
                                     % where)
        unknown = set(entry) - {'agent', 'options', 'timeout'}
        if unknown:
            raise FencingConfigError('%s: unknown key %s' % (where, ', '.join(sorted(unknown))))
        agent = entry.get('agent')
        if not isinstance(agent, str) or not agent:
            raise FencingConfigError('%s: key agent is missing' % where)
        agent_path = _agent_path(agent)
        if agent_path is None:
            raise FencingConfigError('%s: key agent: unknown agent %s (no such program)'
                                     % (where, agent))
        options = entry.get('options') or {}
        if not isinstance(options, dict) or any(
                isinstance(value, (dict, list)) for value in options.values()):
            raise FencingConfigError('%s: key options must map option names to values' % where)
        if 'action' in options:
            raise FencingConfigError('%s: key options: action is the watcher\'s to set' % where)
        timeout = entry.get('timeout', default_timeout)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise FencingConfigError('%s: key timeout must be a number of seconds above 0, '
                                     'not %r' % (where, timeout))
        agents[str(host)] = HostAgent(str(host), agent, agent_path, options, float(timeout))
    return agents


def check_hosts(agents, hosts, path):
    """Every host in ``hosts`` (the enabled compute hosts) has an agent."""
    missing = sorted(set(hosts) - set(agents))
    if missing:
        raise FencingConfigError('%s: host %s: no fence agent (key hosts.%s missing) for an '
                                 'enabled compute host' % (path, missing[0], missing[0]))


def _stdin(action, options):
    lines = ['action=%s' % action]
    for key, value in sorted(options.items()):
        if value is None or value is False:
            continue        # fence agents take "flag=0" as the flag given
        if value is True:
            value = 1
        lines.append('%s=%s' % (key, value))
    return '\n'.join(lines) + '\n'


def run(host_agent, action):
    """Run the host's agent with ``action``: a Result (``code`` None when
    it was killed after its timeout)."""
    process = subprocess.Popen(
        [host_agent.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(_stdin(action, host_agent.options),
                                        timeout=host_agent.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return Result(None, output or '', True)
    return Result(process.returncode, output or '', False)
