// The table: one WebSocket to /ws/tables/{id}; every state the server sends is drawn in full.
// Actions go back as {"type": "act", "action", "version", "id"}; the server checks and stores them.
"use strict";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const invite = new URLSearchParams(location.search).get("invite");
const SUIT_ORDER = [3, 2, 0, 1];  // spades, hearts, clubs, diamonds: the colours alternate
const STRAINS = ["C", "D", "H", "S", "NT"];
const PING_MS = 20000;
const ERROR_MS = 8000;
const SIDE_BY_SIDE = window.matchMedia("(min-width: 1000px)");  // as in table.css: the side column beside the felt

let me;  // the signed-in user, null for none; undefined until /api/me answers
let state = null;
let socket = null;
let retries = 0;
let reconnectTimer = null;
let pending = false;  // an action is on its way: no second click until the next state
let actionCount = 0;
let shownHands = null;  // finished hands already summarised
let summary = null;  // the score.hands entry shown in the summary, or null
let summaryVersion = 0;  // the state's version when it was shown
let lastTrickOpen = false;
let turnKey = "";
let pickedLevel = 0;  // the level chosen in the bid picker
// The Frisch: the cards picked on this page and not sent yet (changeable until the pass is
// confirmed), for the Frisch round named by frischKey; then the ones still to send, one by one.
let frischDraft = [];
let frischKey = "";
let frischQueue = [];
let frischInFlight = null;  // the Frisch card sent and not yet in a state
let turnStarted = 0;
let errorTimer = null;
let inviteChecked = false;
let connects = 0;  // sockets opened so far
let watching = false;  // a visitor chose to watch rather than give a name

const element = whist.element;

// Cards and calls ----------------------------------------------------------------------------

const sortCards = whist.handOrder;

const cardFace = whist.cards.face;

function parseBid(name) {
  const match = /^(\d+)(C|D|H|S|NT)$/.exec(name);
  return match ? { level: Number(match[1]), strain: match[2] } : null;
}

// "5S" -> "5♠", "7NT" -> "7 NT" (in Hebrew "7 ללא שליט"), "pass" -> "Pass", "3" -> "3".
function callLabel(name) {
  if (name === "pass") return whist.t("action.pass");
  const bid = parseBid(name);
  if (!bid) return name;
  return whist.bidLabel(bid.level, bid.strain);
}

function callElement(name) {
  const bid = parseBid(name);
  const red = bid && (bid.strain === "D" || bid.strain === "H");
  const words = bid && bid.strain === "NT";  // "7 ללא שליט" reads in the page's direction, "5♠" left to right
  return element("bdi", { className: red ? "red call" : "call", dir: words ? "auto" : "ltr", text: callLabel(name) });
}

// A number kept left to right, so that a Hebrew page shows -20, not 20-.
function number(value) {
  return element("bdi", { dir: "ltr", text: String(value) });
}

function trumpText(trump) {
  if (trump === 4) return whist.t("trump.nt");
  return trump >= 0 ? whist.SUITS[trump] : "—";
}

// While the trump auction (or a Frisch between its rounds) goes on, the bid standing is only the
// high bid so far: its bidder is the declarer once the auction ends.
function auctionOpen(view) {
  return view.phase === "auction" || view.phase === "frisch";
}

// Seats --------------------------------------------------------------------------------------

function seatName(seat) {
  const info = state.table.seats[seat];
  if (!info) return "?";
  if (info.kind === "bot") return whist.t("seat.bot", { n: seat + 1 });
  return info.name || whist.t("seat.free", { n: seat + 1 });
}

function relative(seat) {
  const n = state.view.players;
  return (seat - Math.max(state.you, 0) + n) % n;
}

// Where a seat sits around the felt, seen from the bottom; play goes clockwise (to the left).
function area(seat) {
  const n = state.view.players;
  const r = relative(seat);
  if (r === 0) return "bottom";
  if (r === 1) return "left";
  if (r === n - 1) return "right";
  return "top";
}

function seatBox(seat) {
  const view = state.view;
  const info = state.table.seats[seat];
  const box = element("div", { className: "seat", dir: document.documentElement.dir,
    dataset: { seat: String(seat), testid: `seat-${seat}` } });
  if (view.player === seat) {
    box.classList.add("turn");
    box.setAttribute("aria-current", "true");
  }
  if (seat === state.you) box.classList.add("mine");
  const name = element("div", { className: "seat-name" }, [element("bdi", { text: seatName(seat) })]);
  if (seat === state.you) name.append(element("span", { className: "muted", text: ` (${whist.t("seat.you")})` }));
  box.append(name);

  const marks = element("div", { className: "seat-marks" });
  if (info.kind === "human" && info.taken) {
    const online = info.connected && !info.away;
    marks.append(element("span", { className: `dot ${online ? "on" : "off"}`, title: whist.t(online ? "seat.online" : "seat.offline"),
      dataset: { testid: `connected-${seat}` }, text: "●" }));
  }
  if (info.kind === "bot") marks.append(element("span", { className: "chip bot", text: whist.t(`level.${info.level}`) }));
  if (info.away) marks.append(element("span", { className: "mark away", dataset: { testid: `away-${seat}` }, text: whist.t("seat.away") }));
  if (view.dealer === seat) marks.append(element("span", { className: "chip", text: whist.t("seat.dealer") }));
  if (view.declarer === seat && view.traits.trump_auction) {
    marks.append(element("span", { className: "chip declarer", text: whist.t(auctionOpen(view) ? "seat.high_bid" : "seat.declarer") }));
  }
  if (view.phase === "play" && view.leader === seat) {
    marks.append(element("span", { className: "chip leads", dataset: { testid: `leads-${seat}` }, text: whist.t("seat.leads") }));
  }
  if (view.traits.partnerships) marks.append(element("span", { className: "chip", text: whist.t("seat.team", { team: seat % 2 ? "B" : "A" }) }));
  box.append(marks);

  const line = element("div", { className: "seat-line" });
  const contract = view.contracts[seat];
  if (contract !== undefined && contract >= 0) {
    line.append(element("span", { className: "contract", dataset: { testid: `contract-${seat}` }, text: whist.t("seat.bid", { n: contract }) }));
  }
  if (view.phase === "play" || view.phase === "over") {
    line.append(element("span", { className: "took", dataset: { testid: `tricks-${seat}` }, text: whist.t("seat.took", { n: view.tricks_won[seat] ?? 0 }) }));
  } else if (view.phase === "auction" || view.phase === "frisch") {
    const mine = view.calls.filter((c) => c[0] === view.frisch_round && c[1] === seat);
    if (mine.length) {
      line.append(element("span", {}, [`${whist.t("seat.called")} `, callElement(mine[mine.length - 1][2])]));
    }
  }
  box.append(line);
  const held = seat !== state.you ? cardsHeld(seat) : null;
  if (held) box.append(held);
  return box;
}

// The cards a seat still holds, face down: the hand's size less the tricks played and its card on
// the table (a Frisch passes as many as it brings, so the count holds through it); null for none.
function cardsHeld(seat) {
  const view = state.view;
  const played = view.trick.some(([s]) => s === seat) ? 1 : 0;
  const count = view.phase === "over" ? 0 : Math.max(0, view.hand_size - view.tricks_played - played);
  return count ? element("div", { className: "seat-cards", dataset: { testid: `held-${seat}` } }, [whist.cards.backs(count)]) : null;
}

function renderFelt() {
  const areas = { top: [], left: [], right: [], bottom: [] };
  const n = state.view.players;
  const order = [];
  for (let r = 0; r < n; r += 1) order.push((Math.max(state.you, 0) + r) % n);
  for (const seat of order) areas[area(seat)].push(seatBox(seat));
  for (const [name, boxes] of Object.entries(areas)) $(`area-${name}`).replaceChildren(...boxes);
}

// The trick in the middle, or the last one (faded) between tricks.
function renderTrick() {
  const view = state.view;
  const trick = $("trick");
  let plays = view.trick;
  let caption = null;
  if (!plays.length && view.last_trick && view.phase === "play") {
    plays = view.last_trick.cards.map((card, i) => [(view.last_trick.leader + i) % view.players, card]);
    caption = whist.t("trick.previous", { name: seatName(view.last_trick.winner) });
  }
  trick.classList.toggle("previous", caption !== null);
  trick.classList.toggle("trick-4", view.players === 4);
  const items = plays.map(([seat, card]) => element("div", { className: `played at-${area(seat)}`, dataset: { seat: String(seat) } },
    [cardFace(card), element("bdi", { className: "played-by", text: seatName(seat) })]));
  // The felt is laid out left to right; the caption reads in the page's direction.
  if (caption) items.push(element("div", { className: "trick-caption", dir: document.documentElement.dir, text: caption }));
  if (view.turned_card >= 0 && !plays.length) {
    items.push(element("div", { className: "played turned" }, [cardFace(view.turned_card), element("span", { className: "played-by", text: whist.t("info.turned") })]));
  }
  trick.replaceChildren(...items);

  const button = $("last-trick-button");
  button.disabled = !view.last_trick;
  if (!view.last_trick) lastTrickOpen = false;
  button.textContent = whist.t(lastTrickOpen ? "trick.hide" : "trick.last");
  button.setAttribute("aria-expanded", String(lastTrickOpen));
  const panel = $("last-trick");
  panel.hidden = !lastTrickOpen;
  if (lastTrickOpen) {
    const last = view.last_trick;
    panel.replaceChildren(
      element("h2", { text: whist.t("trick.last") }),
      element("div", { className: "last-cards" }, last.cards.map((card, i) => {
        const seat = (last.leader + i) % view.players;
        return element("div", { className: seat === last.winner ? "played winner" : "played" },
          [cardFace(card), element("bdi", { className: "played-by", text: seatName(seat) })]);
      })),
      element("p", { text: whist.t("trick.won_by", { name: seatName(last.winner) }) }));
  }
}

// Info bar and status ------------------------------------------------------------------------

// The rules in force where they are not the game's defaults, in the page's language.
function renderHouseRules() {
  const changed = whist.rules.changedText(state.table.house_rules || {}, state.table.game);
  $("house-rules").replaceChildren(whist.element("strong", { text: `${whist.t("rules.house")}: ` }),
    whist.element("bdi", { text: changed.length ? changed.join(" · ") : whist.t("rules.house_standard") }));
}

function renderInfo() {
  const { view, table, score } = state;
  $("info-game").textContent = whist.words(`game.${table.game}`, table.title) + (table.preset ? ` (${whist.t(`preset.${table.preset}`)})` : "");
  const handNumber = score.hands.filter((h) => !h.cancelled).length + (score.over ? 0 : 1);
  $("info-hand").textContent = score.hands_total
    ? whist.t("info.hand", { n: Math.min(handNumber, score.hands_total), total: score.hands_total })
    : whist.t("info.hand_open", { n: handNumber });
  if (table.event) whist.eventlink.info($("info-hand"), table.event);  // an event's board: one hand, named by its board
  const trump = $("trump");
  trump.textContent = trumpText(view.trump);
  trump.className = view.trump === 1 || view.trump === 2 ? "red" : "";
  const declarer = view.declarer >= 0 && view.traits.trump_auction;
  $("declarer-item").hidden = !view.traits.trump_auction;
  const label = $("declarer-label");
  label.dataset.t = auctionOpen(view) ? "info.high_bid" : "info.declarer";  // no declarer before the auction ends
  label.textContent = whist.t(label.dataset.t);
  $("declarer-item").dataset.open = String(auctionOpen(view));
  $("declarer").replaceChildren(...(declarer
    ? [element("bdi", { text: seatName(view.declarer) }), " ", callElement(view.high_bid || "")]
    : ["—"]));
  $("turned-item").hidden = view.turned_card < 0;
  $("turned").replaceChildren(...(view.turned_card >= 0 ? [cardFace(view.turned_card, "mini")] : []));
  $("over-under-item").hidden = !view.traits.over_under || !view.over_under;  // known once every contract is in
  $("felt-state").dir = document.documentElement.dir;  // the felt is laid out left to right; its words follow the page
  const sum = view.contracts.filter((c) => c >= 0).reduce((a, b) => a + b, 0);
  $("over-under").textContent = view.over_under
    ? whist.t(`info.${view.over_under}`, { sum, tricks: view.hand_size })
    : "—";
  $("over-under").dataset.value = view.over_under || "";
}

function renderStatus() {
  const { view, score } = state;
  const mine = isMyTurn();
  const name = view.player >= 0 ? seatName(view.player) : "";
  let text;
  const free = view.player >= 0 && !state.table.seats[view.player].taken;
  if (score.over) text = whist.t("status.over");
  else if (free) text = whist.t("status.waiting", { n: view.player + 1 });
  else if (view.phase === "auction") text = whist.t(mine ? "status.your_call" : "status.calls", { name });
  else if (view.phase === "frisch") {
    text = whist.t(mine ? "status.your_frisch" : "status.frisch",
      { name, round: view.frisch_round + 1, chosen: frischChosen().length, to: frischTo() });
  } else if (view.phase === "contract") text = whist.t(mine ? "status.your_contract" : "status.contract", { name });
  else if (view.phase === "play") text = whist.t(mine ? "status.your_play" : "status.play", { name });
  else text = whist.t("status.cancelled");
  // The statuses are phrases without a full stop: the watcher's note is a sentence after them.
  if (state.you < 0 && !score.over) text += `. ${whist.t("status.watching")}`;
  $("status").textContent = text;
  $("status").classList.toggle("my-turn", mine);
  document.title = (mine ? "● " : "") + whist.t("page.title");
}

function renderTimer() {
  const timer = $("timer");
  const seconds = state && state.table.move_timer;
  const seat = state && state.view.player >= 0 ? state.table.seats[state.view.player] : null;
  if (!seconds || !seat || seat.kind === "bot" || seat.away || state.score.over) {
    timer.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(seconds - (Date.now() - turnStarted) / 1000));
  timer.hidden = false;
  timer.textContent = whist.t("timer", { s: left });
  timer.classList.toggle("urgent", left <= 5);
}

// Actions: calls and contracts as buttons, cards in the hand --------------------------------

function isMyTurn() {
  return state.you >= 0 && state.view.player === state.you && !state.score.over;
}

function legalActions() {
  return isMyTurn() ? state.view.legal : [];
}

function actionButton(item, label, kind) {
  const button = element("button", { type: "button", className: `action ${kind}`, disabled: pending,
    dataset: { action: String(item.action), name: item.name, kind } }, [label]);
  button.addEventListener("click", () => act(item.action));
  return button;
}

function renderActions() {
  const panel = $("actions");
  if (frischMine()) {
    panel.hidden = false;
    panel.replaceChildren(frischConfirm());
    return;
  }
  const others = legalActions().filter((item) => item.action >= 52);
  panel.hidden = others.length === 0;
  if (!others.length) {
    panel.replaceChildren();
    return;
  }
  const view = state.view;
  const children = [];
  const pass = others.find((item) => item.name === "pass");
  const bids = others.filter((item) => parseBid(item.name));
  const contracts = others.filter((item) => /^\d+$/.test(item.name));
  if (pass) children.push(element("div", { className: "pass-row" }, [actionButton(pass, whist.t("action.pass"), "pass")]));
  if (bids.length) children.push(...bidPicker(bids));
  if (contracts.length) {
    const sum = view.contracts.filter((c) => c >= 0).reduce((a, b) => a + b, 0);
    children.push(element("p", { className: "muted", text: whist.t("actions.sum", { sum, tricks: view.hand_size }) }));
    children.push(element("div", { className: "contracts" }, contractButtons(contracts, sum)));
    const forbidden = forbiddenContract(contracts, sum);
    if (forbidden !== null) {
      children.push(element("p", { id: "contract-forbidden", className: "forbidden-reason", dataset: { testid: "contract-forbidden" },
        text: whist.t("actions.forbidden", { n: forbidden, tricks: view.hand_size }) }));
    }
  }
  panel.replaceChildren(...children);
}

// The last to bid may not make the contracts add up to the tricks (over/under): that number is
// shown among the others, disabled, with the reason under them. null where nothing is forbidden.
function forbiddenContract(contracts, sum) {
  const view = state.view;
  const others = view.contracts.filter((c, seat) => seat !== state.you && c < 0).length;
  const n = view.hand_size - sum;
  const low = Math.min(...contracts.map((item) => Number(item.name)));
  const offered = contracts.some((item) => Number(item.name) === n);
  return view.traits.over_under && others === 0 && n >= low && !offered ? n : null;
}

function contractButtons(contracts, sum) {
  const buttons = contracts.map((item) => actionButton(item, item.name, "contract"));
  const forbidden = forbiddenContract(contracts, sum);
  if (forbidden !== null) {
    const at = contracts.filter((item) => Number(item.name) < forbidden).length;
    buttons.splice(at, 0, element("button", { type: "button", className: "action contract forbidden", disabled: true,
      text: String(forbidden), "aria-describedby": "contract-forbidden", dataset: { kind: "forbidden", name: String(forbidden) } }));
  }
  return buttons;
}

// The bids as a level, then a suit: two short rows whatever the number of bids on offer. The
// level shown first is the lowest one; the suits row has the strains legal at the chosen level.
function bidPicker(bids) {
  const levels = [...new Set(bids.map((item) => parseBid(item.name).level))].sort((a, b) => a - b);
  if (!levels.includes(pickedLevel)) pickedLevel = levels[0];
  const levelRow = element("div", { className: "bid-levels", role: "group", "aria-label": whist.t("picker.level") },
    [element("span", { className: "picker-label", text: whist.t("picker.level") })]);
  for (const level of levels) {
    const button = element("button", { type: "button", className: "level", disabled: pending, text: String(level),
      "aria-pressed": String(level === pickedLevel), dataset: { kind: "level", level: String(level) } });
    button.addEventListener("click", () => { pickedLevel = level; renderActions(); });
    levelRow.append(button);
  }
  const strainRow = element("div", { className: "bid-strains", role: "group", "aria-label": whist.t("picker.suit") },
    STRAINS.flatMap((strain) => {
      const item = bids.find((b) => b.name === `${pickedLevel}${strain}`);
      return item ? [actionButton(item, strainLabel(pickedLevel, strain), "bid")] : [];
    }));
  return [levelRow, strainRow];
}

function strainLabel(level, strain) {
  if (strain !== "NT") return callElement(`${level}${strain}`);
  return element("bdi", { className: "call" }, [number(level), ` ${whist.t("trump.nt")}`]);
}

// The Frisch, on this page -------------------------------------------------------------------

// Whether it is this page's turn to choose Frisch cards (and none are on their way).
function frischMine() {
  return state.view.phase === "frisch" && isMyTurn();
}

// Whether confirmed Frisch cards are still on their way to the server.
function frischSending() {
  return frischQueue.length > 0 || frischInFlight !== null;
}

// The name of the seat the Frisch cards go to, or "" where the view does not say.
function frischTo() {
  return state.view.frisch_to >= 0 ? seatName(state.view.frisch_to) : "";
}

// The cards chosen in this Frisch round: those the server holds, then this page's picks.
function frischChosen() {
  const held = state.view.frisch_selected;
  const sending = frischInFlight === null || held.includes(frischInFlight) ? [] : [frischInFlight];
  return [...held, ...sending, ...frischDraft, ...frischQueue];
}

// A new Frisch round (or none) forgets the picks of the last one.
function syncFrischDraft() {
  const view = state.view;
  const key = view.phase === "frisch" ? `${state.score.hands.length}/${view.frisch_round}` : "";
  if (key !== frischKey || !isMyTurn()) {
    frischKey = key;
    frischDraft = [];
    frischQueue = [];
  }
}

// A card tapped in the Frisch: picked, or put back if it was picked; at most three in all.
function toggleFrischCard(card) {
  const at = frischDraft.indexOf(card);
  if (at >= 0) frischDraft.splice(at, 1);
  else if (frischChosen().length < 3) frischDraft.push(card);
  render();
}

// "Pass to {name}": enabled once three cards are chosen; sends them one by one (see setState).
function frischConfirm() {
  const ready = frischChosen().length === 3 && frischDraft.length > 0 && !pending && !frischSending();
  const button = element("button", { type: "button", className: "action frisch-confirm", disabled: !ready,
    dataset: { testid: "frisch-confirm", kind: "frisch-confirm" } },
  [whist.t("action.frisch_pass", { to: frischTo() })]);
  button.addEventListener("click", () => {
    frischQueue = frischDraft;
    frischDraft = [];
    sendFrischQueue();
  });
  return button;
}

function sendFrischQueue() {
  if (frischQueue.length && state.view.phase === "frisch" && isMyTurn()) {
    frischInFlight = frischQueue.shift();
    act(frischInFlight);
  } else {
    frischQueue = [];
  }
}

function renderHand() {
  const view = state.view;
  const legal = new Set(legalActions().filter((item) => item.action < 52).map((item) => item.action));
  const frisch = frischMine();
  const selected = new Set(frisch || view.phase === "frisch" ? frischChosen() : view.frisch_selected);
  const rounds = view.frisch_received.length;
  const received = new Set(rounds && view.phase !== "play" ? view.frisch_received[rounds - 1] : []);
  const hand = $("hand");
  hand.classList.toggle("playable", legal.size > 0 && !pending);
  const groups = [];
  let current = null;
  for (const card of sortCards(view.hand)) {
    if (!current || current.suit !== whist.suitOf(card)) {
      current = { suit: whist.suitOf(card), el: element("div", { className: "suit-group" }) };
      groups.push(current.el);
    }
    const sent = view.frisch_selected.includes(card);
    // In the Frisch a picked card can be put back, and no fourth can be picked.
    const tappable = frisch ? frischDraft.includes(card) || (legal.has(card) && selected.size < 3) : legal.has(card);
    const button = element("button", { type: "button", className: "card",
      disabled: pending || !tappable || (frisch && (sent || frischSending())),
      dataset: { card: String(card) }, "aria-label": whist.cardText(card) });
    if (legal.has(card)) button.classList.add("legal");
    if (selected.has(card)) button.classList.add("selected");
    if (frisch && legal.has(card)) button.setAttribute("aria-pressed", String(selected.has(card)));
    if (received.has(card)) button.classList.add("received");
    if (view.phase === "play" && whist.deliberate.pickedIn(turnKey) === card) {
      button.classList.add("picked");
      button.setAttribute("aria-pressed", "true");
    }
    button.append(cardFace(card));
    button.addEventListener("click", () => tapCard(card));
    current.el.append(button);
  }
  hand.replaceChildren(...groups);
  const picked = view.phase === "play" && legal.size > 0 ? whist.deliberate.pickedIn(turnKey) : null;
  $("play-hint").hidden = picked === null;
  $("play-confirm").disabled = picked === null || pending;

  const info = $("frisch-info");
  const show = rounds > 0 && ["auction", "frisch", "contract"].includes(view.phase);
  info.hidden = !show;
  if (show) {
    const cards = (list) => element("bdi", { className: "card-list", dir: "ltr" }, sortCards(list).map((c) => cardFace(c, "mini")));
    info.replaceChildren(`${whist.t("frisch.passed", { round: rounds })} `, cards(view.frisch_passed[rounds - 1]),
      ` ${whist.t("frisch.received")} `, cards(view.frisch_received[rounds - 1]));
  }
}

// A card of the hand tapped: in the play, where deliberate play is on, the first tap picks it.
function tapCard(card) {
  if (frischMine()) toggleFrischCard(card);
  else if (state.view.phase !== "play" || whist.deliberate.tap(card, turnKey)) act(card);
  else renderHand();
}

// The confirm button under the hand: plays the card picked by a first tap.
function playPicked() {
  const picked = whist.deliberate.pickedIn(turnKey);
  if (picked !== null && whist.deliberate.tap(picked, turnKey)) act(picked);
}

function renderCalls() {
  const view = state.view;
  const panel = $("calls");
  const show = view.calls.length > 0 && ["auction", "frisch", "contract"].includes(view.phase);
  panel.hidden = !show;
  $("calls-jump").hidden = !show;
  if (!show) return;
  const rounds = new Map();
  for (const [round, seat, name] of view.calls) {
    if (!rounds.has(round)) rounds.set(round, []);
    rounds.get(round).push(element("li", {}, [element("bdi", { text: seatName(seat) }), ": ", callElement(name)]));
  }
  panel.replaceChildren(element("h2", { text: whist.t("calls.title") }),
    ...[...rounds.entries()].map(([round, items]) => element("div", { className: "call-round" }, [
      element("h3", { text: round === 0 ? whist.t("calls.round0") : whist.t("calls.round", { n: round }) }),
      element("ul", { className: "call-list" }, items)])));
}

function act(action) {
  if (pending || !socket || socket.readyState !== WebSocket.OPEN || !state) return;
  pending = true;
  actionCount += 1;
  socket.send(JSON.stringify({ type: "act", action, version: state.version, id: `a${actionCount}-${Date.now()}` }));
  render();
}

// Score sheet, end of hand, end of game ------------------------------------------------------

function renderScore() {
  const { score, view } = state;
  const n = view.players;
  const seats = [...Array(n).keys()];
  const head = element("thead", {}, [element("tr", {}, [element("th", { text: whist.t("score.hand") }),
    ...seats.map((s) => element("th", {}, [element("bdi", { text: seatName(s) })]))])]);
  const rows = score.hands.map((hand) => {
    if (hand.cancelled) {
      return element("tr", { className: "cancelled" }, [element("td", { text: String(hand.number) }),
        element("td", { colSpan: n, className: "muted", text: whist.t("score.cancelled") })]);
    }
    return element("tr", {}, [element("td", { text: String(hand.number) }), ...seats.map((s) => {
      const contract = hand.contracts[s];
      const detail = contract !== undefined && contract >= 0 ? `${contract}/${hand.tricks_won[s]}` : String(hand.tricks_won[s]);
      return element("td", {}, [element("span", { className: "points" }, [number(hand.points[s])]),
        element("span", { className: "detail", text: detail })]);
    })]);
  });
  if (!rows.length) rows.push(element("tr", {}, [element("td", { colSpan: n + 1, className: "muted", text: whist.t("score.none") })]));
  const foot = [element("tr", { className: "totals" }, [element("th", { text: whist.t("score.total") }),
    ...seats.map((s) => element("th", { dataset: { testid: `total-${s}` } }, [number(score.totals[s])]))])];
  if (view.traits.games_to_target && score.games_won.some((g) => g > 0)) {
    foot.push(element("tr", {}, [element("th", { text: whist.t("score.games") }),
      ...seats.map((s) => element("th", { text: String(score.games_won[s]) }))]));
  }
  $("score").replaceChildren(head, element("tbody", {}, rows), element("tfoot", {}, foot));
}

function noteNewHands() {
  const hands = state.score.hands;
  if (shownHands === null) shownHands = hands.length - (state.score.over && hands.length ? 1 : 0);
  if (hands.length > shownHands) {
    summary = hands[hands.length - 1];
    summaryVersion = state.version;
    shownHands = hands.length;
  } else if (summary && state.version > summaryVersion && handStarted(state.view) && !SIDE_BY_SIDE.matches) {
    summary = null;  // on a phone the summary sits above the table: it goes at the next hand's first move
  }
}

function handStarted(view) {
  return view.calls.length > 0 || view.trick.length > 0 || view.tricks_played > 0 || view.contracts.some((c) => c >= 0);
}

// Beside the table on a wide screen; on a phone a panel over the felt, which pushes nothing out of
// view (until the next hand's first move, or its close button, closes it).
function placeSummary() {
  const panel = $("hand-summary");
  const side = document.querySelector(".side-column");
  if (SIDE_BY_SIDE.matches && panel.parentElement !== side) side.prepend(panel);
  else if (!SIDE_BY_SIDE.matches && panel.parentElement !== $("felt")) $("felt").append(panel);
  panel.dir = document.documentElement.dir;  // the felt is laid out left to right; the panel reads as the page
}

function renderSummary() {
  const panel = $("hand-summary");
  placeSummary();
  panel.hidden = !summary;
  if (!summary) return;
  const hand = summary;
  const n = hand.points.length;
  const close = element("button", { type: "button", className: "small", id: "summary-close", text: whist.t("summary.close") });
  close.addEventListener("click", () => { summary = null; renderSummary(); });
  if (hand.cancelled) {
    panel.replaceChildren(element("div", { className: "summary-head" },
      [element("h2", { text: whist.t("summary.cancelled", { n: hand.number }) }), close]));
    return;
  }
  const facts = [`${whist.t("info.trump")}: ${trumpText(hand.trump)}`];
  if (hand.declarer >= 0 && state.view.traits.trump_auction) facts.push(`${whist.t("info.declarer")}: ${seatName(hand.declarer)}`);
  if (hand.over_under) {
    const sum = hand.contracts.filter((c) => c >= 0).reduce((a, b) => a + b, 0);
    facts.push(whist.t(`info.${hand.over_under}`, { sum, tricks: hand.tricks }));
  }
  const hasContracts = hand.contracts.some((c) => c >= 0);
  const columns = hasContracts ? 4 : 3;
  const rows = [...Array(n).keys()].flatMap((s) => [
    element("tr", { dataset: { seat: String(s) } }, [
      element("th", {}, [element("bdi", { text: seatName(s) })]),
      hasContracts ? element("td", { text: hand.contracts[s] >= 0 ? String(hand.contracts[s]) : "—" }) : null,
      element("td", { text: String(hand.tricks_won[s]) }),
      element("td", { className: hand.points[s] < 0 ? "negative" : "" }, [number(hand.points[s])]),
    ]),
    element("tr", { className: "dealt-row" }, [element("td", { colSpan: columns, className: "dealt", dir: "ltr", title: whist.t("summary.cards") }, suitRows(hand.deal[s] || []))]),
  ]);
  const head = element("tr", {}, [element("th", { text: whist.t("summary.player") }),
    hasContracts ? element("th", { text: whist.t("summary.bid") }) : null,
    element("th", { text: whist.t("summary.took") }), element("th", { text: whist.t("summary.points") })]);
  panel.replaceChildren(
    element("div", { className: "summary-head" }, [element("h2", { text: whist.t("summary.title", { n: hand.number }) }), close]),
    element("p", { className: "muted", dir: "auto", text: facts.join(" · ") }),
    element("div", { className: "score-scroll" }, [element("table", { className: "summary-table" },
      [element("thead", {}, [head]), element("tbody", {}, rows)])]),
    ...(state.you >= 0 ? [whistHandReview.box({ tableId, invite, number: hand.number, seatName, over: state.score.over })] : []));
}

function suitRows(cards) {
  const bySuit = SUIT_ORDER.map((suit) => sortCards(cards.filter((c) => whist.suitOf(c) === suit)));
  return bySuit.filter((group) => group.length).map((group) => element("span", {
    className: `suit-row ${whist.isRed(group[0]) ? "red" : ""}`, dir: "ltr",
    text: `${whist.SUITS[whist.suitOf(group[0])]} ${group.map((c) => whist.RANKS[c % 13]).join(" ")}`,
  }));
}

function renderStandings() {  // gameover.js: the game's end, and "Play again"
  whist.gameover.draw({ panel: $("standings"), state, seatName, tableId, invite,
    send: (message) => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); } });
}

// Joining: a guest name first, then a free seat ----------------------------------------------

function renderJoin() {
  const panel = $("join");
  const playing = state && !state.score.over;
  const free = state ? state.table.seats.filter((s) => s.kind === "human" && !s.taken) : [];
  const visitor = me === null && state && state.you < 0 && playing;
  // A name is asked for only where there is a seat to take; a full table is for watching.
  const needName = visitor && free.length > 0 && !watching;
  const full = visitor && free.length === 0;
  const canJoin = me && state && state.you < 0 && playing && free.length > 0;
  panel.hidden = !(needName || canJoin || full);
  $("guest-form").hidden = !needName;
  $("table-full").hidden = !full;
  $("join-seats").replaceChildren(...(canJoin ? free.map((seat) => {
    const button = element("button", { type: "button", className: "primary", dataset: { testid: `join-seat-${seat.seat}`, seat: String(seat.seat) },
      text: whist.t("join.seat", { n: seat.seat + 1 }) });
    button.addEventListener("click", () => join(seat.seat));
    return button;
  }) : []));
}

async function join(seat) {
  try {
    await whist.api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: { seat, invite } });
    reconnect();
  } catch (error) {
    showError(null, error.message);
  }
}

async function guest(event) {
  event.preventDefault();
  try {
    me = (await whist.api("/api/guest", { method: "POST", body: { name: $("guest-name").value } })).user;
    reconnect();
    render();
  } catch (error) {
    showError(null, error.message);
  }
}

async function renderInvite() {
  if (inviteChecked || !state || state.table.public) return;
  inviteChecked = true;
  let code = invite;
  if (!code) {
    try {
      code = (await whist.api(`/api/tables/${encodeURIComponent(tableId)}`)).invite;
    } catch {
      code = null;
    }
  }
  if (!code) return;
  $("invite-link").value = `${location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(code)}`;
  $("invite").hidden = false;
}

// Errors -------------------------------------------------------------------------------------

function showError(code, message, fades = true) {
  const key = code ? `error.${code}` : "";
  const known = key && whist.t(key) !== key;
  $("error").textContent = known ? whist.t(key) : `${whist.t("error.title")}: ${message}`;
  $("error").dataset.code = code || "";
  whist.drawn();  // a table refused before its first state: the page says why at once
  clearTimeout(errorTimer);
  if (fades) errorTimer = setTimeout(() => { $("error").textContent = ""; }, ERROR_MS);
}

// The socket: reconnects with growing waits, and asks for the state again --------------------

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`;
}

function connect() {
  clearTimeout(reconnectTimer);
  reconnectTimer = null;
  const ws = new WebSocket(socketUrl());
  const again = retries > 0;
  let opened = false;
  socket = ws;
  ws.addEventListener("open", () => {
    opened = true;
    if (socket !== ws) return;
    if (again) ws.send(JSON.stringify({ type: "sync" }));
    whistChat.connected();  // chat.js: the recent messages
    retries = 0;
    connects += 1;
    $("connection").dataset.connects = String(connects);
    setConnected(true);
    showOffline(false);
  });
  ws.addEventListener("message", (event) => {
    if (socket !== ws) return;
    receive(JSON.parse(event.data));
  });
  ws.addEventListener("close", async (event) => {
    if (socket !== ws) return;
    socket = null;
    pending = false;
    setConnected(false);
    if (event.code === 4401) {
      // Signed out, here or on another device: say so, and watch from now on (the cards go).
      me = null;
      showError("closed_4401", event.reason, false);
      connect();
      return;
    }
    // A refusal before the handshake reaches the browser as a bare failure (1006): ask the API why.
    const refused = event.code === 4404 || event.code === 4403 ? event.code : opened ? 0 : await refusal();
    if (refused) {
      showError(`closed_${refused}`, event.reason, false);
      return;
    }
    if (socket === null) {  // unless the page came back and reconnected meanwhile
      showOffline(true);
      scheduleReconnect();
    }
  });
}

async function refusal() {
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  try {
    await whist.api(`/api/tables/${encodeURIComponent(tableId)}${query}`);
    return 0;
  } catch (error) {
    return error.status === 404 ? 4404 : error.status === 403 ? 4403 : 0;
  }
}

function scheduleReconnect() {
  if (reconnectTimer !== null) return;
  const wait = Math.min(10000, 500 * 2 ** Math.min(retries, 5)) * (0.8 + Math.random() * 0.4);
  retries += 1;
  reconnectTimer = setTimeout(connect, wait);
}

// A new socket at once (after a sign-in or a join, the session or the seat changed).
function reconnect() {
  const old = socket;
  socket = null;
  if (old) old.close();
  retries = Math.max(retries, 1);
  connect();
}

// The banner over the top of the page while the socket is down: moves are not sent meanwhile.
function showOffline(show) {
  $("offline").hidden = !show;
  document.body.classList.toggle("offline", show);
}

function setConnected(online) {
  const el = $("connection");
  el.textContent = whist.t(online ? "conn.online" : "conn.offline");
  el.classList.toggle("online", online);
  el.dataset.online = String(online);
}

function receive(message) {
  if (whistChat.owns(message)) {  // talk at the table: chat.js
    whistChat.receive(message);
  } else if (whistHint.owns(message)) {  // a hint asked for: hint.js
    whistHint.receive(message);
  } else if (message.type === "state") {
    setState(message);
  } else if (message.type === "error") {
    pending = false;
    frischQueue = [];  // the server refused one: the rest are not sent
    frischInFlight = null;
    showError(message.code, message.message);
    if (message.state) setState(message.state);
    else render();
  } else if (message.type === "rematch") {
    whist.gameover.question(message);
  } else if (message.type === "ack") {
    $("error").textContent = "";
  }
}

function setState(message) {
  state = message;
  pending = false;
  const key = `${state.version}/${state.view.player}`;
  if (key !== turnKey) {
    turnKey = key;
    turnStarted = Date.now();
    pickedLevel = 0;  // a new turn shows the lowest level again
  }
  noteNewHands();
  frischInFlight = null;
  syncFrischDraft();
  render();
  renderInvite();
  if (frischQueue.length) sendFrischQueue();  // the next of the Frisch cards confirmed together
  tableAlerts.turn(isMyTurn());  // alerts.js: a chime, a buzz, a notification when it becomes ours
}

// Drawing ------------------------------------------------------------------------------------

function render() {
  renderJoin();
  if (!state) return;
  whist.motion.snapshot();
  const main = $("table");
  const view = state.view;
  Object.assign(main.dataset, {
    phase: view.phase, you: String(state.you), version: String(state.version), myTurn: String(isMyTurn()),
    player: String(view.player), frischRound: String(view.frisch_round), highBid: view.high_bid || "",
    tricksPlayed: String(view.tricks_played), over: String(state.score.over), hands: String(state.score.hands.length), pending: String(pending),
  });
  renderStatus();
  renderTimer();
  renderInfo();
  renderHouseRules();
  renderFelt();
  renderTrick();
  renderActions();
  renderHand();
  renderCalls();
  renderScore();
  renderSummary();
  renderStandings();
  whistChat.update(state, me);
  whistHint.update(state);
  whist.motion.drawn(view, `${state.score.hands.length}/${view.tricks_played}`, String(state.score.hands.length));
  whist.drawn();
}

async function start() {
  whist.applyLanguage();
  whist.initTopBar();
  document.querySelector(".status-bar").append(tableAlerts.toggle());  // alerts.js: the sound's switch
  $("status").textContent = whist.t("status.connecting");
  const sendOnSocket = (message) => {  // chat.js and hint.js send on this page's socket; false while it is down
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  };
  whistChat.start(sendOnSocket);
  whistHint.start(sendOnSocket, callElement);
  setConnected(false);
  $("connection").textContent = "";
  $("guest-form").addEventListener("submit", guest);
  $("watch-only").addEventListener("click", () => { watching = true; renderJoin(); });
  $("reconnect-now").addEventListener("click", () => { if (socket === null) connect(); });
  $("confirm-play").checked = whist.deliberate.on();
  $("play-confirm").addEventListener("click", playPicked);
  $("calls-jump").addEventListener("click", () => $("calls").scrollIntoView({ block: "start" }));
  $("confirm-play").addEventListener("change", () => { whist.deliberate.set($("confirm-play").checked); render(); });
  $("four-colour").checked = whist.cards.fourColour();
  $("four-colour").addEventListener("change", () => whist.cards.setFourColour($("four-colour").checked));
  $("last-trick-button").addEventListener("click", () => { lastTrickOpen = !lastTrickOpen; renderTrick(); });
  $("invite-copy").addEventListener("click", async () => {
    $("invite-link").select();
    try {
      await navigator.clipboard.writeText($("invite-link").value);
      $("invite-copy").textContent = whist.t("invite.copied");
    } catch {
      document.execCommand("copy");
    }
  });
  document.addEventListener("whist:language", render);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && socket === null) connect();
  });
  window.addEventListener("online", () => { if (socket === null) connect(); });
  setInterval(() => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" })); }, PING_MS);
  setInterval(() => { if (state) renderTimer(); }, 1000);
  connect();
  try {
    me = (await whist.api("/api/me")).user;
  } catch {
    me = null;
  }
  render();
}

whist.ready.then(start);
