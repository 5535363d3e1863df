"""Rules of the server actions beyond stop/start/reboot (servers.py):
lock, unlock, reset-state and evacuate, named and defaulted as Nova's."""
from nova.policies import base
from nova.policies.servers import ACTION_PATH

LOCK = 'os_compute_api:os-lock-server:lock'
UNLOCK = 'os_compute_api:os-lock-server:unlock'
UNLOCK_OVERRIDE = 'os_compute_api:os-lock-server:unlock:unlock_override'
RESET_STATE = 'os_compute_api:os-admin-actions:reset_state'
EVACUATE = 'os_compute_api:os-evacuate'

rules = [
    base.rule(LOCK, base.PROJECT_MEMBER_OR_ADMIN, 'Lock a server',
              ('POST', ACTION_PATH % 'lock')),
    base.rule(UNLOCK, base.PROJECT_MEMBER_OR_ADMIN, 'Unlock a server',
              ('POST', ACTION_PATH % 'unlock')),
    base.rule(UNLOCK_OVERRIDE, base.ADMIN,
              'Unlock a server that the other side locked (an admin\'s lock for '
              'its owner, the owner\'s for an admin). Checked only after ' + UNLOCK
              + ' allows.', ('POST', ACTION_PATH % 'unlock')),
    base.rule(RESET_STATE, base.ADMIN, 'Reset the state of a server (active or error)',
              ('POST', ACTION_PATH % 'os-resetState')),
    base.rule(EVACUATE, base.ADMIN,
              'Evacuate a server from a failed (forced down or stale) host to another '
              'host', ('POST', ACTION_PATH % 'evacuate')),
]


def list_rules():
    return rules
