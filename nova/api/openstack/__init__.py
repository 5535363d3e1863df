"""The compute API v2.1: WSGI app, microversions, routes, controllers."""
