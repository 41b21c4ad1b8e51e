// Shared by the pages of finished games (history, replay, leaderboard): the names of games,
// seats and bots, dates, statistics, and cards drawn as small chips.
"use strict";

whist.addTranslations({
  en: {
    "game.israeli": "Israeli Whist",
    "game.classic": "Classic Whist",
    "game.whistiti": "Whistiti",
    "preset.achim": "Achim",
    "preset.pagat": "Pagat",
    "preset.nt5": "no trump from 5",
    "preset.no_nt": "no no-trump",
    "preset.three_no_clubs": "3 players, no clubs",
    "preset.three_short_deck": "3 players, no 2-5",
    "preset.three_short_deck_40": "3 players, no 2-4",
    "preset.three_random_card": "3 players, one card out",
    "preset.honours": "honours",
    "preset.rubber": "rubber",
    "preset.long": "long",
    "preset.up_down": "up and down",
    "preset.down_up": "down and up",
    "bot.named": "Bot {n} ({level})",
    "bot.basic": "basic",
    "bot.random": "random",
    "bot.easy": "easy",
    "bot.medium": "medium",
    "bot.hard": "hard",
    "bot.expert": "expert",
    "seat.empty": "Seat {n}",
    "stats.rating": "Rating",
    "stats.rank": "Rank",
    "stats.games": "Games",
    "stats.hands": "Hands",
    "stats.contracts": "Contracts made",
    "stats.zeros": "Zero bids made",
    "stats.average": "Points per hand",
    "stats.of": "{made} of {all}",
    "stats.unrated": "not rated yet",
    "error.load": "Could not load: {message}",
    "trump.nt_short": "NT",
  },
  he: {
    "game.israeli": "ויסט ישראלי",
    "game.classic": "ויסט קלאסי",
    "game.whistiti": "ויסטיטי",
    "preset.achim": "אחים",
    "preset.pagat": "פגט",
    "preset.nt5": "ללא שליט מ-5",
    "preset.no_nt": "בלי ללא שליט",
    "preset.three_no_clubs": "3 שחקנים, בלי תלתנים",
    "preset.three_short_deck": "3 שחקנים, בלי 2-5",
    "preset.three_short_deck_40": "3 שחקנים, בלי 2-4",
    "preset.three_random_card": "3 שחקנים, קלף אחד בחוץ",
    "preset.honours": "כבודים",
    "preset.rubber": "רובר",
    "preset.long": "ארוך",
    "preset.up_down": "עולה ויורד",
    "preset.down_up": "יורד ועולה",
    "bot.named": "בוט {n} ({level})",
    "bot.basic": "בסיסי",
    "bot.random": "אקראי",
    "bot.easy": "קל",
    "bot.medium": "בינוני",
    "bot.hard": "קשה",
    "bot.expert": "מומחה",
    "seat.empty": "מושב {n}",
    "stats.rating": "דירוג",
    "stats.rank": "מקום",
    "stats.games": "משחקים",
    "stats.hands": "ידיים",
    "stats.contracts": "חוזים שבוצעו",
    "stats.zeros": "הכרזות אפס שבוצעו",
    "stats.average": "נקודות ליד",
    "stats.of": "{made} מתוך {all}",
    "stats.unrated": "עדיין ללא דירוג",
    "error.load": "הטעינה נכשלה: {message}",
    "trump.nt_short": "NT",
  },
});

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

  // A bid ("5S", "7NT") with the suit's symbol.
  function bidText(name) {
    const found = /^(\d+)(C|D|H|S|NT)$/.exec(name);
    if (!found) return name;
    return found[1] + (found[2] === "NT" ? whist.t("trump.nt_short") : whist.SUITS[SUIT_LETTERS.indexOf(found[2])]);
  }

  function showError(error) {
    const box = $("error");
    box.textContent = whist.t("error.load", { message: error.message });
  }

  // Every page: its language, the top bar, and a redraw when the language changes.
  function startPage(render) {
    whist.applyLanguage();
    whist.initTopBar();
    document.addEventListener("whist:language", render);
  }

  return { $, el, gameTitle, seatName, date, number, signed, percent, statRows, cardOfName, cardChip, bidText,
    showError, startPage };
})();
