// Hints at the table (server/hints.py): at a practice table (its creator allowed hints; its games
// are not rated) a seated player asks on their turn for the expert's top choices, each with the
// points it is expected to bring in this hand, and a one-line reason where there is one. The hint
// comes to this page alone; it stays shown until the table moves on.
// table.js calls whistHint.start(send, callElement) once, whistHint.update(state) with every state,
// and hands it the messages whistHint.owns.
"use strict";

const whistHint = (() => {
  const element = whist.element;
  let send = null;  // sends a message on the table's socket; false when it is down
  let callElement = null;  // table.js: a call's words ("5♠", "Pass")
  let state = null;
  let asked = 0;
  let waiting = null;  // the id of the ask not answered yet
  let shown = null;  // the hint message shown, while the table is where it was asked
  let refused = null;  // the code of the last refusal

  const $ = (id) => document.getElementById(id);

  function build() {
    const box = $("hint-panel");
    const button = element("button", { type: "button", className: "hint-button", id: "hint-button",
      dataset: { testid: "hint-button" } });
    button.addEventListener("click", ask);
    box.replaceChildren(
      element("div", { className: "hint-bar" }, [
        button, element("span", { className: "hint-note muted", id: "hint-note", dataset: { testid: "hint-note" } })]),
      element("div", { className: "hint-result", id: "hint-result", dataset: { testid: "hint-result" },
        "aria-live": "polite" }, []),
    );
  }

  function myTurn() {
    return Boolean(state && state.you >= 0 && state.view.player === state.you && !state.score.over);
  }

  function ask() {
    if (!myTurn() || waiting) return;
    asked += 1;
    const id = `hint-${asked}`;
    refused = null;
    if (send && send({ type: "hint", id })) waiting = id;
    else refused = "unavailable";
    render();
  }

  function owns(message) {
    return (message.type === "hint" || message.type === "error") && String(message.id || "").startsWith("hint-");
  }

  function receive(message) {
    if (message.id === waiting) waiting = null;
    if (message.type === "hint") shown = message;
    else refused = message.code;
    render();
  }

  function update(newState) {
    if (state && newState.version !== state.version) {  // the table moved on: the hint was for then
      shown = null;
      refused = null;
    }
    state = newState;
    render();
  }

  // An option's choice, as the table shows it: a card's face, or a call's words.
  function choice(option) {
    return option.action < 52 ? whist.cards.face(option.action, "mini") : callElement(option.name);
  }

  // Points expected, to one decimal, kept left to right (a Hebrew page shows -2.5, not 2.5-).
  const points = (value) => (Math.round(value * 10) / 10).toFixed(1);

  // A card in the record's notation ("QH", "TC") as the page writes cards ("Q♥", "10♣").
  function cardWords(name) {
    const found = /^(10|[2-9TJQKA])([CDHS])$/.exec(String(name));
    if (!found) return String(name);
    const rank = whist.RANKS.indexOf(found[1] === "T" ? "10" : found[1]);
    return whist.cardText("CDHS".indexOf(found[2]) * 13 + rank);
  }

  // A reason's words, from the catalogue: its card arguments as the page writes cards.
  function reasonText(reason) {
    const args = {};
    for (const [key, value] of Object.entries(reason.args || {})) args[key] = key === "card" ? cardWords(value) : value;
    return whist.t(`hint.reason.${reason.key}`, args);
  }

  // The button that puts the hint (or its refusal) away.
  function closeButton() {
    const close = element("button", { type: "button", className: "small hint-close", text: "×",
      "aria-label": whist.t("hint.close"), dataset: { testid: "hint-close" } });
    close.addEventListener("click", () => { shown = null; refused = null; render(); });
    return close;
  }

  function result() {
    if (refused) {
      return [element("div", { className: "hint-head" }, [
        element("p", { className: "error", role: "alert", text: whist.errorText(refused) }), closeButton()])];
    }
    if (waiting) return [element("p", { className: "muted", text: whist.t("hint.working") })];
    if (!shown) return [];
    const hint = shown.hint;
    if (!hint.options.length) return [element("p", { className: "muted hint-none", text: whist.t("hint.none") })];
    const rows = hint.options.map((option, index) => element("li", { className: index === 0 ? "hint-option best" : "hint-option",
      dataset: { testid: "hint-option", action: String(option.action) } }, [
      element("span", { className: "hint-choice" }, [choice(option)]),
      element("bdi", { className: "hint-value", dir: "ltr", text: points(option.value) }),
      element("bdi", { className: "hint-error muted", dir: "ltr", text: `± ${points(option.error)}` }),
      element("span", { className: "hint-best", text: index === 0 ? whist.t("hint.best") : "" }),  // a cell each row
    ]));
    return [
      element("div", { className: "hint-head" }, [
        element("h2", { className: "hint-title", text: whist.t("hint.title") }), closeButton()]),
      element("ol", { className: "hint-options", dataset: { testid: "hint-options" } }, rows),
      hint.reason ? element("p", { className: "hint-reason", dataset: { testid: "hint-reason" }, text: reasonText(hint.reason) }) : null,
      hint.deals ? element("p", { className: "hint-deals muted", text: whist.t("hint.deals", { deals: hint.deals }) }) : null,
    ];
  }

  function render() {
    const box = $("hint-panel");
    if (!box) return;
    const allowed = Boolean(state && state.table.hints);
    box.hidden = !allowed;
    if (!allowed) return;
    if (!$("hint-button")) build();
    const button = $("hint-button");
    button.textContent = whist.t("hint.button");
    button.hidden = !(state.you >= 0) || state.score.over;
    button.disabled = !myTurn() || Boolean(waiting);
    $("hint-note").textContent = whist.t("hint.practice");
    $("hint-result").replaceChildren(...result().filter(Boolean));
    box.classList.toggle("open", Boolean(shown || refused || waiting));
  }

  return {
    start(sender, callWords) {
      send = sender;
      callElement = callWords;
      document.addEventListener("whist:language", render);
    },
    owns, receive, update,
  };
})();
