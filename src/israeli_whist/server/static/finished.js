// Shared by the pages of finished games (history, replay, leaderboard): the names of games,
// seats and bots, dates, statistics, and cards drawn as small chips.
"use strict";

const finished = (() => {
  const $ = (id) => document.getElementById(id);

  // <tag class="..."> with text or child nodes: el("span", "muted", "text"), el("li", "", [a, b]).
  function el(tag, className = "", content = null) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (Array.isArray(content)) node.append(...content.filter((c) => c !== null));
    else if (content !== null) node.textContent = String(content);
    return node;
  }

  const locale = () => (whist.language() === "he" ? "he-IL" : "en-GB");

  function gameTitle(game) {
    const name = whist.t(`game.${game.game}`);
    return game.preset && game.preset !== "standard" ? `${name} (${whist.t(`preset.${game.preset}`)})` : name;
  }

  function seatName(player) {
    if (player.name) return player.name;
    if (player.kind === "bot") return whist.t("bot.named", { n: player.seat + 1, level: whist.t(`bot.${player.level || "basic"}`) });
    return whist.t("seat.empty", { n: player.seat + 1 });
  }

  // "guest #12" beside a guest's name: guests may share a name, never an id. (A player of the
  // API's lists has "user_id", the signed-in user "id".)
  function guestTag(player) {
    if (!player.guest) return null;
    return el("span", "guest-tag", whist.t("player.guest", { id: player.user_id ?? player.id }));
  }

  // A player's rating as the pages show it, on the scale of the bots' levels, written as the
  // lobby writes a level's ("1000", no separator); "provisional" beside it while the player has few games.
  function ratingText(rating) {
    const shown = String(rating.rating);
    return rating.provisional ? `${shown} (${whist.t("board.provisional")})` : shown;
  }

  function date(iso) {
    if (!iso) return "";
    return new Date(iso).toLocaleString(locale(), { dateStyle: "medium", timeStyle: "short" });
  }

  function number(value, digits = 0) {
    if (value === null || value === undefined) return "—";
    return value.toLocaleString(locale(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }

  // "+50", "−10", "0": a hand's points.
  function signed(points) {
    return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0";
  }

  function percent(value) {
    return value === null || value === undefined ? "—" : `${number(value, 1)}%`;
  }

  // [label, value] pairs of a player's statistics, for the history page and the leaderboard.
  function statRows(stats) {
    return [
      [whist.t("stats.games"), number(stats.games)],
      [whist.t("stats.hands"), number(stats.hands)],
      [whist.t("stats.contracts"), stats.contracts
        ? `${percent(stats.contracts_made_pct)} (${whist.t("stats.of", { made: stats.contracts_made, all: stats.contracts })})`
        : "—"],
      [whist.t("stats.zeros"), stats.zero_bids
        ? `${percent(stats.zero_bids_made_pct)} (${whist.t("stats.of", { made: stats.zero_bids_made, all: stats.zero_bids })})`
        : "—"],
      [whist.t("stats.average"), number(stats.average_points, 1)],
    ];
  }

  // Cards: ints suit * 13 + rank, or record names such as "TH" and "AS".
  const SUIT_LETTERS = "CDHS";
  const RANK_LETTERS = "23456789TJQKA";

  function cardOfName(name) {
    const rank = RANK_LETTERS.indexOf(name[0]);
    const suit = SUIT_LETTERS.indexOf(name[1]);
    return name.length === 2 && rank >= 0 && suit >= 0 ? suit * 13 + rank : -1;
  }

  function cardChip(card, extra = "") {
    const chip = el("span", `cardchip${whist.isRed(card) ? " red" : ""}${extra ? ` ${extra}` : ""}`, whist.cardText(card));
    chip.dir = "ltr";
    return chip;
  }

  // A bid ("5S", "7NT") as players write it (whist.bidLabel).
  function bidText(name) {
    const found = /^(\d+)(C|D|H|S|NT)$/.exec(name);
    if (!found) return name;
    return whist.bidLabel(found[1], found[2]);
  }

  // Cards as the live hand shows them (whist.cards.face): left to right in the hand's order, each
  // card whole on one line, in a Hebrew sentence too («6♠», not «♠6»).
  function cardList(cards) {
    const list = el("bdi", "card-list", whist.handOrder(cards).map((card) => whist.cards.face(card, "mini")));
    list.dir = "ltr";
    return list;
  }

  // whist.t with some parameters as nodes (cards, calls): the words around them stay text. Each node
  // stands in the text as a mark of two private-use characters, taken out of the other parameters
  // (a player's name) so that no name can pass for one.
  function tNodes(key, params) {
    const nodes = [];
    const words = Object.fromEntries(Object.entries(params).map(([name, value]) => {
      if (!(value instanceof Node)) return [name, typeof value === "string" ? value.replace(/[\uE000\uE001]/g, "") : value];
      nodes.push(value);
      return [name, `\uE000${nodes.length - 1}\uE001`];
    }));
    return whist.t(key, words).split(/\uE000(\d+)\uE001/).map((part, i) => (i % 2 ? nodes[Number(part)] : part))
      .filter((part) => part !== "");
  }

  function showError(error) {
    const box = $("error");
    box.textContent = whist.t("error.load", { message: error.message });
  }

  // Why a game is not rated (server/ratings.py), as a line for its history entry and its replay; null
  // for a rated game: "Practice table: not rated", or the hints used (server/hints.py).
  function unratedNote(game) {
    if (game.rated !== false) return null;
    if (game.event) {  // a board of a duplicate event: its results are against the field, a link away
      const link = el("a", "unrated-note", whist.t("history.event_board"));
      link.href = `/event/${encodeURIComponent(game.event.id)}/board/${game.event.board}`;
      link.dataset.testid = "unrated-note";
      return link;
    }
    const words = game.hints_used ? whist.t("history.hints_used", { n: game.hints_used }) : whist.t("history.practice");
    const note = el("span", "unrated-note", words);
    note.dataset.testid = "unrated-note";
    return note;
  }

  // The players who asked for a hint at a place of the replay: hand ``number``, after ``step`` actions.
  function hintsAt(game, number, step) {
    return (game.hints || []).filter((h) => h.hand === number && h.step === step).map((h) => seatName(game.players[h.seat]));
  }

  // The replay's lines on hints: the game's note (beside its summary) and who asked for one at this place.
  function showHints(game, number, step) {
    $("unrated").replaceChildren(...[unratedNote(game)].filter(Boolean));
    const names = hintsAt(game, number, step);
    $("hint-here").hidden = !names.length;
    $("hint-here").textContent = names.map((name) => whist.t("replay.hint_here", { name })).join(" ");
  }

  // Every page: its language, the top bar, and a redraw when the language changes.
  function startPage(render) {
    whist.applyLanguage();
    whist.initTopBar();
    document.addEventListener("whist:language", render);
  }

  return { $, el, gameTitle, seatName, guestTag, ratingText, date, number, signed, percent, statRows, cardOfName, cardChip, bidText,
    cardList, tNodes, showError, startPage, unratedNote, showHints };
})();
