"""How long a sign-in takes, by what it is: a known login with the wrong password, an unknown
login, the right password, and a password far past the cap (``israeli_whist.server.passwords``).

A known and an unknown login must cost the same (one scrypt at the current cost each), so that
the answer's time does not tell which logins exist; a huge password is refused before any hash.
The app runs in this process (Starlette's TestClient) on a SQLite file of its own, rate limits
off; the kinds take turns, so that a slower moment of the machine falls on all of them.

Run:  python bench/login_timing.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import RateLimits, ServerSettings

ANNA = {"login": "anna", "password": "correct horse"}
KINDS = {
    "known login, wrong password": {**ANNA, "password": "wrong horse"},
    "unknown login": {"login": "nobody", "password": "wrong horse"},
    "known login, right password": ANNA,
    "16 MB password": {**ANNA, "password": "x" * 16_000_000},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="sign-ins of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = ServerSettings(database_url=f"sqlite:///{Path(folder) / 'whist.db'}", secret_key="k" * 40,
                                  rate_limits=RateLimits.off())
        with TestClient(create_app(settings)) as client:
            assert client.post("/api/register", json=ANNA).status_code == 200
            times: dict[str, list[float]] = {kind: [] for kind in KINDS}
            statuses: dict[str, set[int]] = {kind: set() for kind in KINDS}
            for _ in range(args.rounds):
                for kind, body in KINDS.items():
                    client.cookies.clear()
                    started = time.perf_counter()
                    statuses[kind].add(client.post("/api/login", json=body).status_code)
                    times[kind].append(time.perf_counter() - started)
    print(f"{'sign-in':<30} {'status':>6} {'median ms':>10} {'min ms':>8} {'max ms':>8}")
    for kind, found in times.items():
        print(f"{kind:<30} {','.join(map(str, sorted(statuses[kind]))):>6} {1000 * statistics.median(found):>10.1f} "
              f"{1000 * min(found):>8.1f} {1000 * max(found):>8.1f}")


if __name__ == "__main__":
    main()
