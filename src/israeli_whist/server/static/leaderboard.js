// The leaderboard: rated players by rating, with statistics. A rating is on the scale of the bots'
// levels (server/ratings.py, shown_rating); the provisional come after the others. A guest has
// "guest #id" by the name: guests may share a name.
// On a phone each row becomes a card whose cells carry their column's name. Below it, the ranking of
// duplicate events against the field (GET /api/events/ranking), paged on its own.
"use strict";

whist.ready.then(() => {
  const { $, el } = finished;
  const PAGE_SIZE = 50;
  let me = null;  // the signed-in player, whose row of the ranking against the field is marked

  // A list shown a page at a time with its own Previous and Next, its parts named by `ids`;
  // `draw(page)` shows the page's rows.
  function pagedList(path, ids, draw) {
    let offset = 0;
    let page = null;

    async function load() {
      $("error").textContent = "";
      try {
        page = await whist.api(`${path}?offset=${offset}&limit=${PAGE_SIZE}`);
      } catch (error) {
        finished.showError(error);
        return;
      }
      render();
    }

    function render() {
      if (!page) return;
      draw(page);
      const shown = page.players.length;
      $(ids.pager).hidden = page.total === 0;
      $(ids.newer).disabled = offset === 0;
      $(ids.older).disabled = offset + shown >= page.total;
      $(ids.page).textContent = page.total
        ? whist.t("board.page", { from: offset + 1, to: offset + shown, total: page.total }) : "";
    }

    $(ids.newer).addEventListener("click", () => { offset = Math.max(0, offset - PAGE_SIZE); load(); });
    $(ids.older).addEventListener("click", () => { offset += PAGE_SIZE; load(); });
    return { load, render };
  }

  const rated = pagedList("/api/leaderboard", { pager: "pager", newer: "newer", older: "older", page: "page" }, (page) => {
    $("empty").hidden = page.players.length > 0;
    $("board").hidden = page.players.length === 0;
    $("provisional-about").hidden = !page.players.some((entry) => entry.provisional);
    $("rows").replaceChildren(...page.players.map(row));
  });

  const field = pagedList("/api/events/ranking",
    { pager: "field-pager", newer: "field-newer", older: "field-older", page: "field-page" }, (page) => {
      $("field-window").textContent = whist.t("events.ranking_window", { days: page.days, boards: page.ranked_boards });
      $("field-empty").hidden = page.players.length > 0;
      $("field-rows").replaceChildren(...(page.players.length
        ? [whist.events.standingsTable(page.players, me, "field-rows")] : []));
    });

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

  finished.startPage(() => { rated.render(); field.render(); });
  Promise.all([rated.load(), whist.events.whoAmI().then((user) => { me = user; }).then(field.load)]).finally(whist.drawn);
});
