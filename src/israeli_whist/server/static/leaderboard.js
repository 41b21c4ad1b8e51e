// The leaderboard: rated players by rating, with statistics. A rating is on the scale of the bots'
// levels (server/ratings.py, shown_rating); the provisional come after the others. A guest has
// "guest #id" by the name: guests may share a name.
// On a phone each row becomes a card whose cells carry their column's name.
"use strict";

whist.ready.then(() => {
  const { $, el } = finished;
  const PAGE_SIZE = 50;
  let offset = 0;
  let page = null;

  async function load() {
    $("error").textContent = "";
    try {
      page = await whist.api(`/api/leaderboard?offset=${offset}&limit=${PAGE_SIZE}`);
    } catch (error) {
      finished.showError(error);
      return;
    }
    render();
  }

  function render() {
    if (!page) return;
    $("empty").hidden = page.players.length > 0;
    $("board").hidden = page.players.length === 0;
    $("provisional-about").hidden = !page.players.some((entry) => entry.provisional);
    $("rows").replaceChildren(...page.players.map(row));
    $("newer").disabled = offset === 0;
    $("older").disabled = offset + page.players.length >= page.total;
    $("page").textContent = page.total
      ? whist.t("board.page", { from: offset + 1, to: offset + page.players.length, total: page.total }) : "";
  }

  function cell(label, content, className = "") {
    const td = el("td", className, content);
    td.dataset.label = label;
    return td;
  }

  function row(entry) {
    const link = el("a", "", entry.name);
    link.href = `/history?player=${entry.user_id}`;
    const stats = finished.statRows(entry.stats);
    const tr = el("tr", entry.provisional ? "provisional" : "", [
      cell(whist.t("board.rank"), String(entry.rank), "rank"),
      cell(whist.t("board.player"), [link, finished.guestTag(entry)], "player"),
      cell(whist.t("board.rating"), finished.ratingText(entry), "rating"),
      ...stats.map(([label, value]) => cell(label, value, "num")),
    ]);
    tr.dataset.testid = "board-row";
    return tr;
  }

  finished.startPage(render);
  $("newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE_SIZE); load(); });
  $("older").addEventListener("click", () => { offset += PAGE_SIZE; load(); });
  load().finally(whist.drawn);
});
