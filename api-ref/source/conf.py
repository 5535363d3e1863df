# Sphinx configuration of the compute API reference (os-api-ref).
#
# Build: tox -e api-ref   (sphinx-build -W: any warning fails the build)
import os
import re

_HERE = os.path.dirname(os.path.abspath(__file__))
_VERSIONS = os.path.join(_HERE, '..', '..', 'nova', 'api', 'openstack',
                         'api_version_request.py')


def _microversion(name):
    """MIN_VERSION / MAX_VERSION as the code declares them, read without
    importing the package, so the page's version selector cannot drift."""
    with open(_VERSIONS) as f:
        return re.search(r"^%s = '([0-9.]+)'" % name, f.read(), re.M).group(1)


extensions = ['os_api_ref', 'openstackdocstheme']

project = 'Compute API (nova-host-status)'
copyright = 'The host_status compute API developers'
master_doc = 'index'
source_suffix = {'.rst': 'restructuredtext'}
exclude_patterns = []
pygments_style = 'native'

html_theme = 'openstackdocs'
html_theme_options = {'sidebar_mode': 'toc'}
html_title = project
openstackdocs_repo_name = 'nova-host-status'
openstackdocs_auto_name = False
openstackdocs_use_storyboard = False

os_api_ref_min_microversion = _microversion('MIN_VERSION')
os_api_ref_max_microversion = _microversion('MAX_VERSION')
