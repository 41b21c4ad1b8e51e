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
