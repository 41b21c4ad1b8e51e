"""Passwords: scrypt (memory-hard, in the standard library) with a random salt, compared in
constant time, at the cost the OWASP Password Storage Cheat Sheet asks of scrypt at least
(N=2^17, r=8, p=1: 128 MiB and about a third of a second a hash on one core).

A hash holds its own cost (``scrypt$n=131072,r=8,p=1$salt$digest``), so a hash made at another
cost still checks, and one made at a lower cost is made again at the next successful sign-in
(``sign_in_check``). Hashes from before the cost was stored (``scrypt$salt$digest``) were made at
N=2^14.

A sign-in costs the same work whether or not its login exists: an unknown login, or an account
without a usable hash, is checked against a hash of nothing at the current cost (and an account
whose hash is older costs its own check and one at the current cost), so the answer's time does
not tell which logins exist. A password is capped at ``MAX_PASSWORD`` characters before
any hashing (a 16 MB password took 455 ms of scrypt before the cap).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

MAX_PASSWORD = 200  # characters, at registration and at sign-in alike
SALT_BYTES = 16
DIGEST_BYTES = 32


@dataclass(frozen=True)
class Cost:
    """scrypt's parameters: ``n`` (a power of two) blocks of ``128 * r`` bytes, ``p`` times over."""

    n: int
    r: int
    p: int

    @property
    def memory(self) -> int:
        """``maxmem`` for this cost: OpenSSL refuses to use more than it is allowed, and its
        default (32 MiB) is below the current cost's 128 MiB."""
        return 128 * self.r * (self.n + self.p + 2) + 2**20

    def text(self) -> str:
        return f"n={self.n},r={self.r},p={self.p}"


CURRENT = Cost(2**17, 8, 1)
LEGACY = Cost(2**14, 8, 1)  # the cost of the hashes that do not say theirs
# A stored cost past these is not ours: refused rather than run (n=2^30 would ask for 128 GiB).
MOST = Cost(2**20, 32, 16)
COST_TEXT = re.compile(r"n=([0-9]{1,8}),r=([0-9]{1,3}),p=([0-9]{1,3})")


def hash_password(password: str, cost: Cost = CURRENT) -> str:
    salt = secrets.token_bytes(SALT_BYTES)
    return "$".join(["scrypt", cost.text(), _b64(salt), _b64(_scrypt(password, salt, cost))])


def sign_in_check(password: str, stored: str | None) -> tuple[bool, str | None]:
    """The work of one sign-in: whether ``password`` is the one ``stored`` was made from (None: no
    such login), and the new hash to store where the stored one was made at another cost than
    ``CURRENT``. A hash that is not ours, or none, costs a hash at the current cost all the same."""
    parsed = parse_hash(stored or "")
    if parsed is None:
        _scrypt(password, bytes(SALT_BYTES), CURRENT)
        return False, None
    cost, salt, digest = parsed
    right = hmac.compare_digest(_scrypt(password, salt, cost), digest)
    if cost == CURRENT:
        return right, None
    # Made at another cost: a hash at the current cost follows, right or wrong, so that a wrong
    # password's time does not tell an old account from an unknown login either.
    rehashed = hash_password(password)
    return right, rehashed if right else None


def parse_hash(stored: str) -> tuple[Cost, bytes, bytes] | None:
    """(cost, salt, digest) of a stored hash, or None if it is not one of ours.

    >>> parse_hash("scrypt$n=16384,r=8,p=1$AAAA$AAAA")[0], parse_hash("scrypt$AAAA$AAAA")[0] == LEGACY
    (Cost(n=16384, r=8, p=1), True)
    >>> [parse_hash(text) for text in ("", "bcrypt$x$y", "scrypt$n=3,r=8,p=1$AAAA$AAAA")]
    [None, None, None]
    """
    parts = stored.split("$")
    if len(parts) == 3 and parts[0] == "scrypt":
        cost, salt, digest = LEGACY, parts[1], parts[2]
    elif len(parts) == 4 and parts[0] == "scrypt" and (found := COST_TEXT.fullmatch(parts[1])) is not None:
        cost = Cost(*(int(number) for number in found.groups()))
        salt, digest = parts[2], parts[3]
    else:
        return None
    if not (1 < cost.n <= MOST.n and cost.n & (cost.n - 1) == 0 and 0 < cost.r <= MOST.r and 0 < cost.p <= MOST.p):
        return None
    try:
        return cost, base64.b64decode(salt, validate=True), base64.b64decode(digest, validate=True)
    except (binascii.Error, ValueError):
        return None


def _scrypt(password: str, salt: bytes, cost: Cost) -> bytes:
    return hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=salt, n=cost.n, r=cost.r, p=cost.p,
                          maxmem=cost.memory, dklen=DIGEST_BYTES)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()
