// Shared by every page: language (Hebrew right to left, or English), the API, card names.
// The words of every page live in one catalogue per language, i18n/en.json and i18n/he.json:
// pages start drawing once whist.ready has loaded them, so no page shows a bare key.
"use strict";

const whist = (() => {
  const LANGUAGES = ["en", "he"];
  const translations = { en: {}, he: {} };

  async function loadCatalogue(lang) {
    try {
      const response = await fetch(`/static/i18n/${lang}.json`, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      addTranslations({ [lang]: await response.json() });
    } catch (error) {
      // A missing Hebrew catalogue leaves English (and English leaves the keys): still a usable page.
      console.error(`The ${lang} words could not be loaded:`, error);
    }
  }

  // Resolves once both catalogues are in (or failed): both, because the language switches in place.
  const ready = Promise.all(LANGUAGES.map(loadCatalogue));
  markDirection();  // right to left from the first paint, before the words arrive

  function language() {
    const chosen = localStorage.getItem("whist-lang");
    if (chosen === "he" || chosen === "en") return chosen;
    return (navigator.language || "en").toLowerCase().startsWith("he") ? "he" : "en";
  }

  // Adds words on top of the catalogues' (the catalogues are where new words belong).
  function addTranslations(table) {
    for (const lang of Object.keys(translations)) Object.assign(translations[lang], table[lang] || {});
  }

  // Latin words inside Hebrew text ("JSON, לבדיקה ב־whist check") are isolated (LRI ... PDI, as <bdi>
  // would), so their punctuation stays put; {name} placeholders are left for t to fill.
  const LATIN_OR_PLACEHOLDER = /\{\w+\}|[A-Za-z](?:[A-Za-z0-9 ._'-]*[A-Za-z0-9])?/g;
  const isolateLatin = (text) =>
    text.replace(LATIN_OR_PLACEHOLDER, (run) => (run.startsWith("{") ? run : `\u2066${run}\u2069`));

  // The text of a key in the page's language; plural forms are chosen for their numbers (plural below),
  // then {name} placeholders are filled from params.
  function t(key, params = {}) {
    const own = translations[language()][key];
    const text = own === undefined ? plural(translations.en[key] ?? key, params, "en")
      : language() === "he" ? isolateLatin(plural(own, params, "he")) : plural(own, params, "en");
    return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
  }

  // Counted nouns are written as ICU message formats write them, one form per plural category of the
  // language: "{n, plural, one {יד אחת} two {שתי ידיים} other {# ידיים}}". The browser's
  // Intl.PluralRules names the category of params.n (Hebrew: one, two, other, and many in older
  // browsers; English: one, other); an exact "=0" form wins, a missing category falls back to other,
  // and "#" in the form is the number, written as the language writes numbers (1,234). The catalogue
  // test checks that every count is written so
  // (tests/server/test_catalogues.py).
  const PLURAL_START = /\{(\w+),\s*plural,/g;
  const pluralRules = {};
  function plural(text, params, lang) {
    let out = "";
    let from = 0;
    PLURAL_START.lastIndex = 0;
    for (let found = PLURAL_START.exec(text); found; found = PLURAL_START.exec(text)) {
      const read = pluralForms(text, PLURAL_START.lastIndex);
      if (!read) break;  // not closed: the text is shown as written rather than cut
      const value = params[found[1]];
      const count = Number(value);
      pluralRules[lang] ??= new Intl.PluralRules(lang);
      const form = read.forms[`=${count}`] ?? read.forms[pluralRules[lang].select(count)] ?? read.forms.other ?? "";
      const number = typeof value === "number" ? value.toLocaleString(lang) : String(value ?? "");
      out += text.slice(from, found.index) + form.replaceAll("#", number);
      from = PLURAL_START.lastIndex = read.end;
    }
    return out + text.slice(from);
  }

  // The forms "one {…} other {…}" that start at `at`, up to the select's closing brace: {forms, end}
  // with `end` just after it, or null where a brace is missing. A form may hold {placeholders}.
  function pluralForms(text, at) {
    const forms = {};
    for (let i = at; i < text.length;) {
      if (text[i] === " ") { i += 1; continue; }
      if (text[i] === "}") return { forms, end: i + 1 };
      const open = text.indexOf("{", i);
      if (open < 0) return null;
      let close = open + 1;
      for (let depth = 1; depth > 0; close += 1) {
        if (close >= text.length) return null;
        if (text[close] === "{") depth += 1;
        else if (text[close] === "}") depth -= 1;
      }
      forms[text.slice(i, open).trim()] = text.slice(open + 1, close - 1);
      i = close;
    }
    return null;
  }

  // A catalogue's words, or `fallback` where the catalogue has none (a new option or game, before its words).
  function words(key, fallback) {
    const text = t(key);
    return text === key ? fallback : text;
  }

  function markDirection() {
    const lang = language();
    document.documentElement.lang = lang;
    document.documentElement.dir = lang === "he" ? "rtl" : "ltr";
    // The app installed from this page is named in its language (server/webapp.py).
    const manifest = document.querySelector("link[rel=manifest]");
    if (manifest) manifest.href = `/manifest.webmanifest?lang=${lang}`;
  }

  // Sets lang and dir on <html> and fills every element that has a data-t key.
  function applyLanguage() {
    markDirection();
    for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
    for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  }

  function setLanguage(lang) {
    localStorage.setItem("whist-lang", lang);
    applyLanguage();
    document.dispatchEvent(new CustomEvent("whist:language"));
  }

  // A refusal in the page's words where the catalogue knows its code (error.<code>), else the server's.
  // Refusals whose detail is particular (a field's check, the rules' reason) say it after their
  // words, isolated so that Latin text keeps its direction inside a Hebrew sentence.
  function errorText(code, message) {
    const key = `error.${code}`;
    return code && key in translations.en ? t(key, { detail: `\u2068${message}\u2069` }) : message;
  }

  // JSON API call; throws an Error carrying the refusal's text (see errorText) and code on failure,
  // and the seconds of its Retry-After (a 429, or a busy 503) where it has one, else 0.
  // A change (any method but GET) carries X-Whist-Request, which no other site's form can send:
  // the server refuses a change without it or a JSON body (docs/server-protocol.md).
  async function api(path, options = {}) {
    const init = { credentials: "same-origin", ...options, headers: { ...options.headers } };
    if ((options.method || "GET").toUpperCase() !== "GET") init.headers["X-Whist-Request"] = "1";
    if (options.body !== undefined && typeof options.body !== "string") {
      init.body = JSON.stringify(options.body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await fetch(path, init);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
      const error = new Error(errorText(data.code, detail || response.statusText));
      error.status = response.status;
      error.code = data.code || "";
      error.retryAfter = Number(response.headers.get("Retry-After")) || 0;
      throw error;
    }
    return data;
  }

  const SUITS = ["♣", "♦", "♥", "♠"];
  const STRAIN_LETTERS = ["C", "D", "H", "S", "NT"];
  // A bid as players write it: "5♠", or the page's words for no trump ("7 NT", "7 ללא שליט").
  const bidLabel = (level, strain) =>
    strain === "NT" ? `${level} ${t("trump.nt_short")}` : `${level}${SUITS[STRAIN_LETTERS.indexOf(strain)]}`;
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const suitOf = (card) => Math.floor(card / 13);
  const cardText = (card) => RANKS[card % 13] + SUITS[suitOf(card)];
  const isRed = (card) => suitOf(card) === 1 || suitOf(card) === 2;
  // Cards in the order a hand holds them, left to right: spades, hearts, clubs, diamonds (the colours
  // alternate), high cards first. The table's hand, the replay's hands and its analysis.
  const HAND_SUITS = [3, 2, 0, 1];
  const handOrder = (cards) =>
    [...cards].sort((a, b) => HAND_SUITS.indexOf(suitOf(a)) - HAND_SUITS.indexOf(suitOf(b)) || b % 13 - a % 13);

  return { ready, language, addTranslations, t, words, errorText, applyLanguage, setLanguage, api, SUITS, RANKS, suitOf, cardText,
    isRed, handOrder, bidLabel };
})();

// The same top bar on every page: pages hold an empty <header class="topbar"> and this fills it,
// with the language switch (<button data-lang="he">): pages call whist.initTopBar() once.
whist.TOPBAR = `
  <a class="brand" href="/" data-t="site.name">Whist</a>
  <nav>
    <a href="/" data-t="nav.lobby">Lobby</a>
    <a href="/events" data-t="nav.events" data-testid="events-link">Events</a>
    <a href="/history" data-t="nav.history">History</a>
    <a href="/leaderboard" data-t="nav.leaderboard">Leaderboard</a>
    <a href="/sheet" data-t="nav.sheet" data-testid="sheets-link">Score sheet</a>
  </nav>
  <div class="lang-switch" role="group" aria-label="Language" data-t-label="nav.language">
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

// The page's main part is drawn: shown (see main[aria-busy] in style.css). Called by each page once
// its first drawing is done, whether it drew what it fetched or the error that came instead.
whist.drawn = function drawn() {
  for (const main of document.querySelectorAll("main[aria-busy]")) main.removeAttribute("aria-busy");
};

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

// A preset's name, with what it changes where the catalogue says (preset.<name>.about): for the lobby.
whist.presetLabel = function presetLabel(name) {
  const about = whist.t(`preset.${name}.about`);
  return about === `preset.${name}.about` ? whist.t(`preset.${name}`) : `${whist.t(`preset.${name}`)} (${about})`;
};

// The service worker (served as /sw.js, server/webapp.py): the site installs as an app, and a page
// opened without a connection says that the table needs one. Registered once the page has loaded,
// so that it never competes with the page's own requests.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch((error) => console.error("No service worker:", error));
  });
}
