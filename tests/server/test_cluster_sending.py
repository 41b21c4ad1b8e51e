"""A node's messages to the others go out through one connection (``Cluster.notify``). A caller
cancelled in mid-send (a socket that closed while its message was going out, a timeout) made
psycopg close that connection, and the node could send nothing more: a player who left through
one node was never reported to the table's owner. Neither that nor a connection closed under the
node may silence it."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from israeli_whist.server.cluster import Cluster
from israeli_whist.server.db import Store

CHANNEL = "sending_probe"


@pytest.fixture
def store(postgres_url: str) -> Iterator[Store]:
    store = Store(postgres_url)
    yield store
    store.close()


async def numbers_heard(listener: psycopg.AsyncConnection[object], last: object, seconds: float = 10) -> list[object]:
    """The ``n`` of every message on the probe channel, until the one whose ``n`` is ``last``."""
    heard: list[object] = []

    async def listen() -> None:
        async for notice in listener.notifies():
            heard.append(json.loads(notice.payload)["n"])
            if heard[-1] == last:
                return

    await asyncio.wait_for(listen(), seconds)
    return heard


async def sends_after(store: Store, postgres_url: str, trouble: str) -> list[object]:
    cluster = Cluster(store, postgres_url, "north", 10)
    await cluster.start()
    listener = await psycopg.AsyncConnection.connect(cluster.conninfo, autocommit=True)
    try:
        await listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
        if trouble == "cancelled callers":
            # Callers cancelled after 0 to 2 ms, twice: some before their statement went out, some
            # while it waited for the database's answer.
            for number in range(80):
                sending = asyncio.create_task(cluster.notify(CHANNEL, {"n": number}))
                await asyncio.sleep(number % 20 / 10_000)
                sending.cancel()  # and again while psycopg cancels the query (a shutdown's second cancel)
                await asyncio.sleep(0)
                sending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sending
        else:
            await cluster.sender.close()
        await cluster.notify(CHANNEL, {"n": "after"})
        return await numbers_heard(listener, "after")
    finally:
        await listener.close()
        await cluster.stop()


@pytest.mark.parametrize("trouble", ["cancelled callers", "a closed connection"])
def test_the_node_still_sends_after(store: Store, postgres_url: str, trouble: str) -> None:
    heard = asyncio.run(sends_after(store, postgres_url, trouble))
    assert heard[-1] == "after"
    if trouble == "cancelled callers":
        # A message whose caller was cancelled once it had started goes out whole or not at all,
        # in order; most went (a cancellation before the first turn stops it before it starts).
        numbers = [n for n in heard if isinstance(n, int)]
        assert numbers == sorted(numbers) and len(numbers) >= 60, numbers
