// The history page: finished games, newest first, each with its players' places and totals and a
// link to its replay. With ?player=ID it lists that player's games under their statistics.
"use strict";

whist.ready.then(() => {
  const { $, el } = finished;
  const PAGE_SIZE = 20;
  const query = new URLSearchParams(location.search);
  const player = /^\d+$/.test(query.get("player") || "") ? query.get("player") : null;
  let offset = Math.max(0, parseInt(query.get("offset") || "0", 10) || 0);
  let page = null;
  let profile = null;

  async function load() {
    $("error").textContent = "";
    const params = new URLSearchParams({ offset, limit: PAGE_SIZE });
    if (player) params.set("player", player);
    try {
      [page, profile] = await Promise.all([
        whist.api(`/api/history?${params}`),
        player ? whist.api(`/api/players/${player}/stats`) : null,
      ]);
    } catch (error) {
      finished.showError(error);
      return;
    }
    render();
  }

  function render() {
    renderProfile();
    if (!page) return;
    $("empty").hidden = page.games.length > 0;
    $("games").replaceChildren(...page.games.map(gameItem));
    $("newer").disabled = offset === 0;
    $("older").disabled = offset + page.games.length >= page.total;
    $("page").textContent = page.total
      ? whist.t("history.page", { from: offset + 1, to: offset + page.games.length, total: page.total }) : "";
  }

  function renderProfile() {
    $("player").hidden = !profile;
    if (!profile) return;
    $("player-name").replaceChildren(profile.user.name, ...[finished.guestTag(profile.user)].filter(Boolean));
    $("history-title").textContent = whist.t("history.player_games", { name: profile.user.name });
    const rating = profile.rating;
    const rows = [
      [whist.t("stats.rating"), rating ? finished.ratingText(rating) : whist.t("stats.unrated")],
      ...(rating ? [[whist.t("stats.rank"), finished.number(rating.rank)]] : []),
      ...finished.statRows(profile.stats),
    ];
    $("player-stats").replaceChildren(...rows.map(([label, value]) => el("div", "stat", [el("dt", "", label),
      el("dd", "", value)])));
  }

  function gameItem(game) {
    const played = whist.t("history.hands", { n: game.hands_played });
    const replay = el("a", "button", whist.t("history.replay"));
    replay.href = `/replay/${encodeURIComponent(game.id)}`;
    const head = el("div", "game-head", [
      el("strong", "", finished.gameTitle(game)),
      el("span", "muted", `${finished.date(game.finished_at)} · ${played}`),
      finished.unratedNote(game),  // a practice game, or one with hints used
      replay,
    ]);
    const order = game.players.map((p) => p.seat).sort((a, b) => game.places[a] - game.places[b] || a - b);
    const results = el("ol", "results", order.map((seat) => resultItem(game, seat)));
    const item = el("li", "game-item", [head, results]);
    item.dataset.testid = "game";
    return item;
  }

  function resultItem(game, seat) {
    const p = game.players[seat];
    const name = el("span", "name", finished.seatName(p));
    if (p.user_id !== null && p.kind === "human") {
      const link = el("a", "", finished.seatName(p));
      link.href = `/history?player=${p.user_id}`;
      name.replaceChildren(...[link, finished.guestTag(p)].filter(Boolean));
    }
    const place = el("span", "place", String(game.places[seat]));
    place.title = whist.t("history.place", { n: game.places[seat] });
    const item = el("li", game.places[seat] === 1 ? "winner" : "", [place, name,
      el("span", "total", finished.number(game.totals[seat]))]);
    if (p.user_id !== null && String(p.user_id) === player) item.classList.add("me");
    return item;
  }

  function go(newOffset) {
    offset = Math.max(0, newOffset);
    const params = new URLSearchParams(location.search);
    if (offset) params.set("offset", offset);
    else params.delete("offset");
    history.replaceState(null, "", `${location.pathname}${params.size ? `?${params}` : ""}`);
    load();
  }

  finished.startPage(render);
  $("newer").addEventListener("click", () => go(offset - PAGE_SIZE));
  $("older").addEventListener("click", () => go(offset + PAGE_SIZE));
  load().finally(whist.drawn);
});
