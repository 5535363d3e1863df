"""A server's access addresses (accessIPv4, accessIPv6), kept in the one
text form Nova stores and shows them in, whatever form the request used:
``0000:0000:0000:0000:0000:babe:220.12.22.2`` is ``::babe:dc0c:1602``."""
import ipaddress
import socket

# instance column -> the address class its text must parse as
_COLUMNS = {'access_ip_v4': ipaddress.IPv4Address, 'access_ip_v6': ipaddress.IPv6Address}


def _text(address):
    if address.version == 4:
        return str(address)
    # The C library's form, as Nova's address fields give it: compressed
    # hex, but an IPv4-mapped or -compatible address keeps its dotted quad
    # (::ffff:1.2.3.4), which str() gives only from Python 3.13.
    return socket.inet_ntop(socket.AF_INET6, address.packed)


def normalized(values):
    """``values`` (column -> value) with each access address in its
    canonical text; empty and absent ones as they are. The API's schema
    has already refused what does not parse."""
    found = dict(values)
    for column, kind in _COLUMNS.items():
        if found.get(column):
            found[column] = _text(kind(found[column]))
    return found
