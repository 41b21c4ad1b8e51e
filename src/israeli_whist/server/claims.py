"""A guest keeps their games when they make an account: the guest becomes the account.

A browser signed in as a guest registers with ``"claim": <the guest's id>``. The guest's row
becomes the account (a login, a password hash, and the name given, else the guest's own), in one
UPDATE that only a row still a guest matches: the user keeps its id, so its seats in every game,
its rating and its statistics are the account's at once, and nothing is copied, so nothing can
be lost or counted twice. Two claims of one guest at once: one matches, the other is refused.

Only the guest a browser is signed in as can be claimed (``claim_not_yours``), and only while it
is a guest (``claim_not_guest``). The guest's other sessions (copies of its cookie) end: a
guest's session needs no password, an account's did.
"""

from __future__ import annotations

from sqlalchemy import update

from israeli_whist.server.db import Store, users
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused


def check_claim(store: Store, signed_in_user: int | None, claim: int) -> str:
    """The name of the guest ``claim`` that the browser of ``signed_in_user`` may claim, or the refusal."""
    if signed_in_user != claim:
        raise Refused(403, Refusal.CLAIM_NOT_YOURS, "You can keep the games only of the guest you are signed in as")
    user = store.user(claim)
    if user is None or user["login"] is not None:
        raise Refused(409, Refusal.CLAIM_NOT_GUEST, "This player already has an account")
    return str(user["name"])


def claim_guest(store: Store, guest_id: int, name: str, login: str, password_hash: str) -> None:
    """Make guest ``guest_id`` an account, or ``claim_not_guest`` if it is no longer a guest.
    Raises IntegrityError when another registration took ``login`` meanwhile."""
    with store.begin() as c:
        made = c.execute(update(users).where(users.c.id == guest_id, users.c.login.is_(None))
                         .values(name=name, login=login, password_hash=password_hash))
        if made.rowcount != 1:
            raise Refused(409, Refusal.CLAIM_NOT_GUEST, "This player already has an account")
