# Sphinx configuration of the project documentation (doc/source).
#
# Build: tox -e docs   (sphinx-build -W: any warning fails the build)

extensions = ['openstackdocstheme']

project = 'nova-host-status'
copyright = 'The host_status compute API developers'
master_doc = 'index'
source_suffix = {'.rst': 'restructuredtext'}
exclude_patterns = []
pygments_style = 'native'

html_theme = 'openstackdocs'
html_title = project
openstackdocs_repo_name = 'nova-host-status'
openstackdocs_auto_name = False
openstackdocs_auto_version = False
openstackdocs_use_storyboard = False
