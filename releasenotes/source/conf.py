# Sphinx configuration of the release notes (reno).
#
# Build: tox -e releasenotes   (reno lint, then sphinx-build -W)
# reno reads the notes from git history: commit a note before building.

extensions = ['reno.sphinxext', 'openstackdocstheme']

project = 'nova-host-status Release Notes'
copyright = 'The host_status compute API developers'
master_doc = 'index'
source_suffix = {'.rst': 'restructuredtext'}
exclude_patterns = []
pygments_style = 'native'

html_theme = 'openstackdocs'
html_title = project
openstackdocs_repo_name = 'nova-host-status'
openstackdocs_auto_name = False
openstackdocs_use_storyboard = False
