// A board's results against the field, once the player has played it: every player who held the
// same cards, with their contract, tricks, points, the percentage of the field they beat and their
// points above its average (the player's own line marked), a link to each replay and its review,
// and the deal. Before the player has played it the server refuses (board_unplayed): the page
// offers the board to play instead.
"use strict";

whist.ready.then(() => {
  const { $ } = finished;
  const element = whist.element;
  const kit = whist.events;
  const parts = location.pathname.split("/").filter(Boolean);  // event, {id}, board, {n}
  const eventId = decodeURIComponent(parts[1] || "");
  const number = Number(parts[3]) || 0;
  const invite = new URLSearchParams(location.search).get("invite");
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";

  let board = null;
  let refusal = null;  // the refusal's code when the server would not show the board

  async function load() {
    try {
      board = await whist.api(`/api/events/${encodeURIComponent(eventId)}/boards/${number}${query}`);
      refusal = null;
    } catch (error) {
      refusal = error.code || "error";
      if (refusal !== "board_unplayed") $("error").textContent = error.message;
    }
    render();
  }

  function render() {
    $("event-link").href = board ? kit.eventPath(eventId, invite) : $("event-link").href;
    $("unplayed").hidden = refusal !== "board_unplayed";
    $("field-panel").hidden = !board;
    $("deal-panel").hidden = !board;
    if (refusal === "board_unplayed") renderUnplayed();
    if (!board) return;
    const title = whist.t("results.board_of", { n: board.number, event: `\u2068${kit.name(board.event)}\u2069` });  // isolated: any script
    $("board-title").textContent = title;
    document.title = `${whist.t("site.name")}: ${title}`;
    $("event-link").textContent = kit.name(board.event);
    $("field").replaceChildren(...fieldLine());
    $("results").replaceChildren(resultsTable());
    $("deal").replaceChildren(...board.hands.map(handItem));
  }

  function renderUnplayed() {
    $("event-link").href = kit.eventPath(eventId, invite);
    $("event-link").textContent = whist.t("results.back");
    $("board-title").textContent = whist.t("event.board", { n: number });
    const button = kit.playButton(eventId, { number, status: "open" }, invite, kit.showError);
    $("unplayed-play").replaceChildren(button);
  }

  // "3 players held these cards · the field's average: +12.5"
  function fieldLine() {
    const { field } = board;
    return [element("span", { text: whist.t("results.count", { n: field.count }) }), " · ",
      element("span", { text: whist.t("results.average", { average: `\u2066${kit.aboveText(field.average)}\u2069` }) })];
  }

  // The hand's trump: a suit's symbol (or its number, 0 to 3, clubs first), no trump ("NT" or 4), or none.
  function trumpCell(trump) {
    if (trump === null || trump === undefined) return "—";
    if (trump === "NT" || trump === 4) return whist.t("trump.nt_short");
    const symbol = typeof trump === "number" ? whist.SUITS[trump] : trump;
    return element("bdi", { dir: "ltr", className: symbol === "♥" || symbol === "♦" ? "red" : "", text: symbol });
  }

  const COLUMNS = [["name", "events.player"], ["contract", "results.contract"], ["tricks", "results.tricks"],
    ["trump", "results.trump"], ["points", "results.points"], ["percent", "events.percent"],
    ["above_average", "events.above"], ["replay", "history.replay"]];

  function cell(line, key) {
    if (key === "name") return [element("bdi", { text: line.name }), line.you ? element("span", { className: "you-tag", text: whist.t("seat.you") }) : null];
    if (key === "contract") return [line.contract === null ? "—" : kit.ltr(String(line.contract))];
    if (key === "tricks") return [kit.ltr(String(line.tricks))];
    if (key === "trump") return [trumpCell(line.trump)];
    if (key === "points") return [kit.ltr(kit.pointsText(line.points), line.points < 0 ? "negative" : "")];
    if (key === "percent") return [kit.ltr(kit.percentText(line.percent))];
    if (key === "above_average") return [kit.ltr(kit.aboveText(line.above_average))];
    return [element("a", { href: line.replay, text: whist.t("history.replay"), dataset: { testid: "replay-link" } })];
  }

  // Each player's line, best first as the server orders them; on a phone each a card (events.css).
  function resultsTable() {
    return element("table", { className: "ranking results-table", dataset: { testid: "results" } }, [
      element("thead", {}, [element("tr", {}, COLUMNS.map(([, label]) => element("th", { scope: "col", text: whist.t(label) })))]),
      element("tbody", {}, board.results.map((line) => element("tr", { className: line.you ? "mine" : "", dataset: { testid: "result-line" } },
        COLUMNS.map(([key, label]) => element("td", { className: key, dataset: { label: whist.t(label) } }, cell(line, key)))))),
    ]);
  }

  // A seat's cards, by suit as the table's hand sorts them, drawn by cards.js.
  function handItem(text, seat) {
    const cards = text.split(/\s+/).filter(Boolean).map(finished.cardOfName).filter((card) => card >= 0);
    const suits = [3, 2, 0, 1].map((suit) => whist.handOrder(cards.filter((card) => whist.suitOf(card) === suit)))
      .filter((group) => group.length);
    const who = seat === board.seat ? whist.t("results.your_hand") : whist.t("results.bot_hand", { n: seat + 1 });
    const marks = seat === board.dealer ? [element("span", { className: "mark", text: whist.t("seat.dealer") })] : [];
    return element("li", { className: seat === board.seat ? "deal-hand mine" : "deal-hand", dataset: { seat: String(seat) } }, [
      element("div", { className: "deal-who" }, [element("strong", { text: who }), ...marks]),
      element("div", { className: "deal-cards", dir: "ltr" }, suits.map((group) =>
        element("span", { className: "deal-suit" }, group.map((card) => whist.cards.face(card, "mini"))))),
    ]);
  }

  finished.startPage(render);
  load().then(() => kit.keepFresh(load)).finally(whist.drawn);
});
