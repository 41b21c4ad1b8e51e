// Shared by every page: language (Hebrew right to left, or English), the API, card names.
"use strict";

const whist = (() => {
  const translations = { en: {}, he: {} };

  function language() {
    const chosen = localStorage.getItem("whist-lang");
    if (chosen === "he" || chosen === "en") return chosen;
    return (navigator.language || "en").toLowerCase().startsWith("he") ? "he" : "en";
  }

  function addTranslations(table) {
    for (const lang of Object.keys(translations)) Object.assign(translations[lang], table[lang] || {});
  }

  // The text of a key in the page's language; {name} placeholders are filled from params.
  function t(key, params = {}) {
    const text = translations[language()][key] ?? translations.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
  }

  // Sets lang and dir on <html> and fills every element that has data-t="key".
  function applyLanguage() {
    const lang = language();
    document.documentElement.lang = lang;
    document.documentElement.dir = lang === "he" ? "rtl" : "ltr";
    for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
  }

  function setLanguage(lang) {
    localStorage.setItem("whist-lang", lang);
    applyLanguage();
    document.dispatchEvent(new CustomEvent("whist:language"));
  }

  // JSON API call; throws an Error carrying the server's message on failure.
  async function api(path, options = {}) {
    const init = { credentials: "same-origin", headers: {}, ...options };
    if (options.body !== undefined && typeof options.body !== "string") {
      init.body = JSON.stringify(options.body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await fetch(path, init);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
      const error = new Error(detail || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  const SUITS = ["♣", "♦", "♥", "♠"];
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const suitOf = (card) => Math.floor(card / 13);
  const cardText = (card) => RANKS[card % 13] + SUITS[suitOf(card)];
  const isRed = (card) => suitOf(card) === 1 || suitOf(card) === 2;

  return { language, addTranslations, t, applyLanguage, setLanguage, api, SUITS, RANKS, suitOf, cardText, isRed };
})();

// The top bar shared by the pages: its links' names, and the language switch
// (<button data-lang="he">): pages call whist.initTopBar() once.
whist.addTranslations({
  en: { "site.name": "Whist", "nav.lobby": "Lobby", "nav.history": "History", "nav.leaderboard": "Leaderboard",
        "nav.sheet": "Score sheet", "nav.language": "Language" },
  he: { "site.name": "ויסט", "nav.lobby": "לובי", "nav.history": "היסטוריה", "nav.leaderboard": "טבלת דירוג",
        "nav.sheet": "דף ניקוד", "nav.language": "שפה" },
});

// The same top bar on every page: pages hold an empty <header class="topbar"> and this fills it.
whist.TOPBAR = `
  <a class="brand" href="/" data-t="site.name">Whist</a>
  <nav>
    <a href="/" data-t="nav.lobby">Lobby</a>
    <a href="/history" data-t="nav.history">History</a>
    <a href="/leaderboard" data-t="nav.leaderboard">Leaderboard</a>
    <a href="/sheet" data-t="nav.sheet">Score sheet</a>
  </nav>
  <div class="lang-switch" role="group" aria-label="Language">
    <button type="button" data-lang="he" lang="he" data-testid="lang-he">עברית</button>
    <button type="button" data-lang="en" lang="en" data-testid="lang-en">English</button>
  </div>`;

whist.initTopBar = function initTopBar() {
  for (const header of document.querySelectorAll("header.topbar")) {
    if (!header.children.length) header.innerHTML = whist.TOPBAR;
  }
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => whist.setLanguage(button.dataset.lang));
  }
  const mark = () => {
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === whist.language()));
    }
  };
  document.addEventListener("whist:language", mark);
  mark();
  whist.applyLanguage();  // the bar's own texts, which may be newer than the page's first pass
};

// Names of the games, their presets (as `whist rules` lists them) and the bot levels, for every page.
whist.addTranslations({
  en: {
    "game.israeli": "Israeli Whist", "game.classic": "Classic Whist", "game.whistiti": "Whistiti",
    "preset.standard": "Standard", "preset.achim": "Achim (zero bids score ±30 in an over hand)",
    "preset.pagat": "Pagat (four passes end the auction)", "preset.nt5": "No trump from 5",
    "preset.no_nt": "No no-trump bids", "preset.three_no_clubs": "3 players, no clubs",
    "preset.three_short_deck": "3 players, no 2 to 5", "preset.three_short_deck_40": "3 players, no 2 to 4",
    "preset.three_random_card": "3 players, one card removed", "preset.honours": "Honours",
    "preset.rubber": "Rubber (best of three)", "preset.long": "Long (10 points, honours)",
    "preset.up_down": "Up and down", "preset.down_up": "Down and up",
    "level.random": "random", "level.basic": "basic", "level.easy": "easy", "level.medium": "medium",
    "level.hard": "hard", "level.expert": "expert",
  },
  he: {
    "game.israeli": "ויסט ישראלי", "game.classic": "ויסט קלאסי", "game.whistiti": "ויסטיטי",
    "preset.standard": "רגיל", "preset.achim": "אחים (הימור אפס ±30 ביד אובר)",
    "preset.pagat": "פגאט (ארבעה פסים מסיימים את המכרז)", "preset.nt5": "בלי שליט מ־5",
    "preset.no_nt": "בלי הימורי בלי־שליט", "preset.three_no_clubs": "3 שחקנים, בלי תלתנים",
    "preset.three_short_deck": "3 שחקנים, בלי 2 עד 5", "preset.three_short_deck_40": "3 שחקנים, בלי 2 עד 4",
    "preset.three_random_card": "3 שחקנים, קלף אחד מוצא", "preset.honours": "אונרים",
    "preset.rubber": "רבר (הטוב משלושה)", "preset.long": "ארוך (10 נקודות, אונרים)",
    "preset.up_down": "עולה ויורד", "preset.down_up": "יורד ועולה",
    "level.random": "אקראי", "level.basic": "בסיסי", "level.easy": "קל", "level.medium": "בינוני",
    "level.hard": "קשה", "level.expert": "מומחה",
  },
});

// A new element: props are properties (className, text for textContent, dataset: {...}) or else
// attributes; children are nodes or strings, null and undefined skipped. Text never becomes HTML.
whist.element = function element(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else if (key in el) el[key] = value;
    else el.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) el.append(child);
  return el;
};
