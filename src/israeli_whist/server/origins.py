"""Which pages may use the server: its own, and the origins a proxy's owner names.

A browser puts the page's origin (``scheme://host[:port]``) in the ``Origin`` header of every
WebSocket handshake and every POST, DELETE... it sends, whatever site the page is on, and a page
cannot forge it. The server's own origin is the one the browser used to reach it: the request's
scheme and its ``Host`` header. A proxy that rewrites the host (or ends TLS, so the server sees
``http``) breaks that match; ``--allowed-origin`` names the site's public origin for it.

A page on another port of the same host is another origin, though the same *site*: it gets the
``SameSite=Lax`` cookie, which is why the origin, not the cookie, decides.

Everything here is pure text work on header values that may hold anything (the ASGI server hands
them over as Latin-1): an origin that does not parse is simply not allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

DEFAULT_PORTS = {"http": 80, "https": 443}
# What a WebSocket's scope calls the scheme its page was loaded over.
PAGE_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
# A host as browsers send it: a name, an IPv4 address, or an IPv6 one in brackets; then a port.
HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::([0-9]{1,5}))?")
ORIGIN = re.compile(r"(https?)://" + HOST.pattern)


def normal_origin(text: str) -> str | None:
    """``text`` as an origin in one spelling (lower case, no default port), or None if it is not one.

    >>> normal_origin("HTTPS://Whist.Example:443"), normal_origin("http://127.0.0.1:8000")
    ('https://whist.example', 'http://127.0.0.1:8000')
    >>> [normal_origin(t) for t in ("null", "http://a.example/path", "http://a:99999", "http://שלום")]
    [None, None, None, None]
    """
    if not text.isascii():
        return None
    found = ORIGIN.fullmatch(text.lower())
    if found is None:
        return None
    scheme, host, port = found.groups()
    return _joined(scheme, host, port)


def own_origin(scheme: str, host_header: str | None) -> str | None:
    """The origin of a page served by this request's server: the request's scheme (a WebSocket's
    ``ws`` is a page's ``http``) and its ``Host`` header; None without a usable Host.

    >>> own_origin("ws", "127.0.0.1:8000"), own_origin("https", "Whist.Example:443"), own_origin("http", "a b")
    ('http://127.0.0.1:8000', 'https://whist.example', None)
    """
    page_scheme = PAGE_SCHEMES.get(scheme)
    if page_scheme is None or host_header is None or not host_header.isascii():
        return None
    found = HOST.fullmatch(host_header.lower())
    if found is None:
        return None
    host, port = found.groups()
    return _joined(page_scheme, host, port)


def _joined(scheme: str, host: str, port: str | None) -> str | None:
    number = DEFAULT_PORTS[scheme] if port is None else int(port)
    if not 0 < number <= 65535:
        return None
    return f"{scheme}://{host}" if number == DEFAULT_PORTS[scheme] else f"{scheme}://{host}:{number}"


def origin_allowed(origin: str, scheme: str, host_header: str | None, allowed: Iterable[str] = ()) -> bool:
    """Whether a page at ``origin`` (an ``Origin`` header's text) may use this server, reached
    over ``scheme`` with ``host_header``; ``allowed`` are more origins, in ``normal_origin``'s spelling.

    >>> origin_allowed("http://127.0.0.1:8000", "http", "127.0.0.1:8000")
    True
    >>> origin_allowed("http://127.0.0.1:9000", "ws", "127.0.0.1:8000")
    False
    >>> origin_allowed("https://whist.example", "http", "node1:8000", ["https://whist.example"])
    True
    """
    page = normal_origin(origin)
    return page is not None and (page == own_origin(scheme, host_header) or page in allowed)
