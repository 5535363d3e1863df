"""The openstackclient plugin of this package (``openstack server host
health show``, ``openstack host maintenance ...``, ``openstack server list
by host status``): client side only, it talks HTTP to the compute API."""
