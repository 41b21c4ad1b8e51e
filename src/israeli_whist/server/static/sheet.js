// The score sheet for games played with real cards: /sheet (start one, list mine) and
// /sheet/{id} (enter hands, see the points). The server checks and scores every hand with the
// engine's rules; the checks here only catch the usual slips early, in the page's language.
"use strict";

const SIDES = ["A", "B"];
const t = whist.t;

let me = null; // the signed-in user, or null
let sheet = null; // the sheet shown, as the API returns it
let undoArmed = null; // timer while "take back" waits for its second tap
let rulesByGame = {}; // GET /api/rules: every game's options and presets
let rulesForm = null; // the chosen game's options form (rulesform.js)

// What kind of game the sheet keeps (docs/server-protocol.md#game-traits): the page asks these,
// never the game's name, and builds the hand's form from the fields the entry holds.
const traits = () => sheet.traits;
const entryHas = (field) => sheet.traits.sheet_fields.includes(field);
const contractKey = () => (sheet.traits.contract_word === "bid" ? "sheet.whistiti_bid" : "sheet.contract");

// DOM helpers ------------------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "testid") node.dataset.testid = value;
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

const $ = (id) => document.getElementById(id);

function showError(node, message) {
  node.textContent = message || "";
  node.hidden = !message;
}

function signed(points) {
  return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0";
}

// A signed number kept left to right inside Hebrew text ("+19", not "19+").
function numberNode(points, tag = "bdi") {
  return el(tag, { dir: "ltr", text: signed(points) });
}

function penaltyNode(points) {
  return el("small", { class: "sheet-penalty" }, `${t("sheet.revoked")} `, numberNode(points));
}

function strainText(strain) {
  const index = ["C", "D", "H", "S", "NT"].indexOf(strain);
  return index === 4 ? t("sheet.nt") : whist.SUITS[index];
}

function numberSelect(testid, low, high, value, label) {
  const select = el("select", { testid, "aria-label": label });
  for (let n = low; n <= high; n++) select.append(el("option", { value: String(n), text: String(n) }));
  if (value !== undefined && value >= low && value <= high) select.value = String(value);
  return select;
}

function numberInput(testid, low, high, label) {
  return el("input", { type: "number", inputmode: "numeric", min: String(low), max: String(high), step: "1",
                       testid, "aria-label": label, class: "sheet-num" });
}

// The value of a number input, or null when it is empty or not a whole number.
function wholeValue(input) {
  const text = input.value.trim();
  return /^\d+$/.test(text) ? Number(text) : null;
}

function sideNames(players) {
  return [`${players[0]} & ${players[2]}`, `${players[1]} & ${players[3]}`];
}

// Start page: the form and my sheets ------------------------------------------------------------

function playerCount() {
  return rulesForm ? rulesForm.seats() : 4;
}

function field(labelKey, control) {
  control.id = control.id || `f-${control.dataset.testid}`;
  return el("div", { class: "sheet-field" }, el("label", { for: control.id, "data-t": labelKey, text: t(labelKey) }),
            control);
}

// The sheet's words for a preset where it has its own ("A game is 5 points"), else the lobby's.
function presetText(game, name) {
  const key = `sheet.preset.${game}.${name}`;
  return t(key) === key ? whist.presetLabel(name) : t(key);
}

// The chosen game's presets and every option, made from the rules' metadata (rulesform.js);
// a preset fills the options with its values. A language change keeps what was chosen.
function renderGameOptions() {
  const game = rulesByGame[$("game").value];
  const box = $("game-options");
  if (!game) return;
  const same = rulesForm && rulesForm.game === game.name;
  const kept = same ? { preset: $("opt-preset").value, values: rulesForm.values(), open: rulesForm.advanced.open } : null;
  const preset = el("select", { id: "opt-preset", testid: "preset" });
  for (const { name } of game.presets) preset.append(el("option", { value: name, text: presetText(game.name, name) }));
  rulesForm = whist.rules.form(game, renderNameInputs);
  rulesForm.game = game.name;
  if (kept) {
    preset.value = kept.preset;
    rulesForm.fill(kept.values);
    rulesForm.advanced.open = kept.open;
  } else {
    rulesForm.applyPreset(preset.value);
  }
  preset.addEventListener("change", () => {
    rulesForm.applyPreset(preset.value);
    renderNameInputs();
  });
  box.replaceChildren(field("sheet.preset", preset), rulesForm.common, rulesForm.advanced);
  renderNameInputs();
}

function renderNameInputs() {
  const box = $("name-inputs");
  const old = [...box.querySelectorAll("input")].map((input) => input.value);
  box.replaceChildren();
  for (let i = 0; i < playerCount(); i++) {
    const input = el("input", { id: `name-${i}`, testid: `player-name-${i}`, maxlength: "40", required: true,
                                autocomplete: "off", value: old[i] || "" });
    input.placeholder = t("sheet.player_n", { n: i + 1 });
    box.append(el("div", { class: "sheet-field" },
                  el("label", { for: input.id, text: t("sheet.player_n", { n: i + 1 }) }), input));
  }
}

function createRequest() {
  const game = $("game").value;
  const preset = $("opt-preset").value;
  const options = rulesForm.options(preset);
  const players = [...$("name-inputs").querySelectorAll("input")].map((input, i) =>
    input.value.trim() || t("sheet.player_n", { n: i + 1 }));
  return { game, preset, options, players };
}

async function createSheet(event) {
  event.preventDefault();
  showError($("create-error"), "");
  const button = event.submitter || $("create-form").querySelector("button[type=submit]");
  button.disabled = true;
  try {
    if (!me) {
      const name = $("scorer-name").value.trim() || t("sheet.player_n", { n: 1 });
      me = (await whist.api("/api/guest", { method: "POST", body: { name } })).user;
    }
    const created = await whist.api("/api/sheets", { method: "POST", body: createRequest() });
    window.location.assign(`/sheet/${encodeURIComponent(created.id)}`);
  } catch (error) {
    showError($("create-error"), error.message);
    button.disabled = false;
  }
}

async function showList() {
  $("list-view").hidden = false;
  $("scorer-row").hidden = Boolean(me);
  document.title = `${t("sheet.page_title")} · ${t("site.name")}`;
  renderGameOptions();
  await renderSheetList();
}

async function renderSheetList() {
  const list = $("sheet-list");
  list.replaceChildren();
  if (!me) {
    $("no-sheets").hidden = false;
    return;
  }
  const { sheets } = await whist.api("/api/sheets");
  $("no-sheets").hidden = sheets.length > 0;
  for (const item of sheets) {
    const progress = item.hands_total
      ? t("sheet.hands_progress", { played: item.hands_played, total: item.hands_total })
      : t("sheet.hands_played", { played: item.hands_played });
    const when = new Date(item.created_at).toLocaleDateString(whist.language());
    list.append(el("li", { testid: "sheet-item" },
                   el("a", { href: `/sheet/${encodeURIComponent(item.id)}`, text: t(`sheet.game.${item.game}`) }),
                   el("span", { class: "sheet-hint", text: ` · ${item.players.join(", ")} · ${progress}` +
                                (item.over ? ` · ${t("sheet.finished")}` : "") + ` · ${when}` })));
  }
}

// One sheet: the table of points -----------------------------------------------------------------

function rulesLine() {
  const parts = [t(`sheet.game.${sheet.game}`)];
  const rules = sheet.rules;
  if (traits().games_to_target) parts.push(t("sheet.to_target", { target: rules.target }));
  if (sheet.hands_total) {
    parts.push(t("sheet.hands_progress", { played: sheet.hands_played, total: sheet.hands_total }));
  } else {
    parts.push(t("sheet.hands_played", { played: sheet.hands_played }));
  }
  if (!traits().games_to_target && rules.target) parts.push(t("sheet.to_target", { target: rules.target }));
  // Every other option that differs from the defaults, in the words of the options form.
  const others = Object.entries(sheet.options).filter(([key]) => !["hands", "target", "players"].includes(key));
  parts.push(...whist.rules.changedText(Object.fromEntries(others), sheet.game));
  return parts.join(" · ");
}

function pointsCell(points, detail, penalty, extraClass = "") {
  const cls = `sheet-points ${points < 0 ? "neg" : points > 0 ? "pos" : ""} ${extraClass}`.trim();
  return el("td", { class: cls },
            el("span", { class: "sheet-pts", dir: "ltr", text: signed(points) }),
            detail ? el("small", { class: "sheet-detail", dir: "ltr", text: detail }) : null,
            penalty ? penaltyNode(penalty) : null);
}

function renderPlayersTable(table) {
  const players = sheet.players;
  table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "#" }),
                                   players.map((name) => el("th", { scope: "col", class: "sheet-name", text: name })))));
  const body = el("tbody");
  for (const hand of sheet.hands) {
    const entry = hand.entry;
    const head = el("th", { scope: "row", class: "sheet-rowhead" }, el("span", { text: String(hand.number) }));
    if (hand.cancelled) {
      body.append(el("tr", { testid: `hand-row-${hand.number}`, class: "sheet-cancelled" }, head,
                     el("td", { colspan: String(players.length), text: t("sheet.cancelled") })));
      continue;
    }
    if (traits().hand_size_varies) head.append(el("small", { text: t("sheet.cards_short", { n: hand.hand_size }) }));
    head.append(el("small", { text: t(`sheet.${hand.over_under}`) }));
    const cells = players.map((_, seat) => {
      const detail = `${entry.contracts[seat]}/${entry.tricks[seat]}`;
      const isDeclarer = traits().trump_auction && entry.declarer === seat;
      const cell = pointsCell(hand.points[seat], detail, hand.penalties[seat], isDeclarer ? "sheet-declarer" : "");
      if (isDeclarer) {
        const red = entry.strain === "D" || entry.strain === "H";
        cell.prepend(el("small", { class: `sheet-bid ${red ? "red" : ""}`, testid: `bid-${hand.number}`,
                                   dir: entry.strain === "NT" ? "auto" : "ltr",
                                   text: whist.bidLabel(entry.level, entry.strain) }));
      }
      cell.dataset.testid = `points-${hand.number}-${seat}`;
      return cell;
    });
    body.append(el("tr", { testid: `hand-row-${hand.number}` }, head, cells));
  }
  table.append(body);
  const leader = Math.max(...sheet.totals);
  table.append(el("tfoot", {}, el("tr", {}, el("th", { scope: "row", text: t("sheet.total") }),
    sheet.totals.map((total, seat) => el("td", { testid: `total-${seat}`, dir: "ltr",
                                                   class: `sheet-total ${total === leader && sheet.hands_played ? "lead" : ""}`,
                                                   text: signed(total) })))));
}

// A game of two sides: one column per side, and the games won toward the target.
function renderSidesTable(table) {
  const names = sideNames(sheet.players);
  table.append(el("caption", { class: "sheet-caption" },
                  names.map((n, i) => el("span", { text: t("sheet.side", { side: SIDES[i], names: n }) }))));
  table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "#" }),
                                   el("th", { scope: "col", text: t("sheet.tricks") }),
                                   SIDES.map((side, i) => el("th", { scope: "col", class: "sheet-name", title: names[i],
                                                                     text: t("sheet.side_short", { side }) })),
                                   el("th", { scope: "col", text: t("sheet.game_col") }))));
  const body = el("tbody");
  let gamePoints = [0, 0];
  for (const hand of sheet.hands) {
    gamePoints = [gamePoints[0] + hand.points[0], gamePoints[1] + hand.points[1]];
    const game = el("td", { class: "sheet-game" }, `${gamePoints[0]}–${gamePoints[1]}`,
                    hand.game_won === null ? null
                      : el("small", { text: t("sheet.game_won", { side: SIDES[hand.game_won] }) }));
    if (hand.game_won !== null) gamePoints = [0, 0];
    const sides = [0, 1].map((side) => {
      const cell = pointsCell(hand.points[side], null, 0);
      if (hand.honours[side]) {
        cell.append(el("small", {}, `${t("sheet.honours_col")} `, numberNode(hand.honours[side])));
      }
      if (hand.penalties[side]) cell.append(penaltyNode(hand.penalties[side]));
      cell.dataset.testid = `points-${hand.number}-${side}`;
      return cell;
    });
    body.append(el("tr", { testid: `hand-row-${hand.number}` },
                   el("th", { scope: "row", class: "sheet-rowhead", text: String(hand.number) }),
                   el("td", { text: `${hand.entry.tricks[0]}–${hand.entry.tricks[1]}` }), sides, game));
  }
  table.append(body);
  const games = sheet.rules.rubber ? `${t("sheet.games_won")}: ${sheet.games_won[0]}–${sheet.games_won[1]}`
    : `${sheet.game_points[0]}–${sheet.game_points[1]}`;
  table.append(el("tfoot", {}, el("tr", {}, el("th", { scope: "row", text: t("sheet.total") }), el("td"),
    [0, 1].map((side) => el("td", { testid: `total-${side}`, class: "sheet-total", dir: "ltr",
                                    text: signed(sheet.totals[side]) })),
    el("td", { testid: "games", text: games }))));
}

function renderGameOver() {
  const box = $("game-over");
  box.hidden = !sheet.over;
  if (!sheet.over) return;
  const sides = traits().partnerships;
  const names = sides ? sideNames(sheet.players) : sheet.players;
  const totals = sides ? sheet.totals.slice(0, 2) : sheet.totals;
  const places = sides ? sheet.places.slice(0, 2) : sheet.places;
  const order = names.map((name, i) => i).sort((a, b) => places[a] - places[b]);
  box.replaceChildren(el("strong", { text: t("sheet.game_over") }),
                      el("ul", { class: "sheet-places" }, order.map((i) => el("li", { testid: `place-${i}` },
                        `${places[i]}. `, el("bdi", { text: names[i] }), ": ", numberNode(totals[i])))));
}

// One sheet: the form of the next hand -------------------------------------------------------------

function playerRows(withRevokes, bidKey) {
  const size = sheet.next.hand_size;
  const table = el("table", { class: "sheet-entry" });
  table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("sheet.player") }),
                                   el("th", { scope: "col", text: t(bidKey) }),
                                   el("th", { scope: "col", text: t("sheet.tricks") }),
                                   withRevokes ? el("th", { scope: "col", title: t("sheet.revoke_help"),
                                                            text: t("sheet.revokes") }) : null)));
  const body = el("tbody");
  sheet.players.forEach((name, seat) => {
    body.append(el("tr", { id: `entry-row-${seat}` },
                   el("th", { scope: "row" }, el("span", { class: "sheet-name", text: name }),
                      el("small", { id: `entry-note-${seat}`, class: "sheet-note" })),
                   el("td", {}, numberInput(`contract-${seat}`, 0, size, `${t(bidKey)}: ${name}`)),
                   el("td", {}, numberInput(`tricks-${seat}`, 0, size, `${t("sheet.tricks")}: ${name}`)),
                   withRevokes ? el("td", {}, numberSelect(`revoke-${seat}`, 0, 3, 0, `${t("sheet.revokes")}: ${name}`))
                     : null));
  });
  table.append(body);
  return table;
}

const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);

// The trump auction's result (declarer, bid, trump, Frisch rounds) above the players' contracts.
function renderAuctionForm(box) {
  const players = sheet.players;
  const passed = el("input", { type: "checkbox", id: "all-passed", testid: "all-passed" });
  const declarer = el("select", { id: "declarer", testid: "declarer" },
                      el("option", { value: "", text: t("sheet.choose") }),
                      players.map((name, seat) => el("option", { value: String(seat), text: name })));
  const strain = el("select", { id: "strain", testid: "strain" });
  sheet.bid_strains.forEach((letter) => {
    strain.append(el("option", { value: letter, text: strainText(letter) }));
    if (letter === "S") strain.value = letter;
  });
  const frisch = numberSelect("frisch", 0, sheet.rules.frisch_rounds, 0);
  frisch.id = "frisch";
  const level = el("select", { id: "level", testid: "level" });
  const auction = el("div", { class: "sheet-auction" },
                     field("sheet.declarer", declarer), field("sheet.bid", level), field("sheet.trump", strain),
                     sheet.rules.frisch_rounds > 0 ? field("sheet.frisch", frisch) : null);
  const rows = playerRows(entryHas("revokes"), contractKey());
  box.append(el("div", { class: "sheet-field sheet-check" }, passed,
                el("label", { for: "all-passed", "data-t": "sheet.all_passed", text: t("sheet.all_passed") })),
             el("div", { id: "played-fields" }, auction, rows,
                el("p", { class: "sheet-hint", text: t("sheet.revoke_help") })));

  const refillLevels = () => {
    const strainIndex = ["C", "D", "H", "S", "NT"].indexOf(strain.value);
    const low = sheet.min_levels[Number(frisch.value)][strainIndex];
    const keep = Number(level.value);
    level.replaceChildren();
    for (let n = low; n <= sheet.next.hand_size; n++) level.append(el("option", { value: String(n), text: String(n) }));
    level.value = String(Math.max(low, Math.min(keep || low, sheet.next.hand_size)));
  };
  const markBidders = () => {
    const seat = declarer.value === "" ? -1 : Number(declarer.value);
    players.forEach((_, i) => {
      $(`entry-row-${i}`).classList.toggle("sheet-declarer", i === seat);
      $(`entry-note-${i}`).textContent =
        seat < 0 ? "" : i === seat ? t("sheet.declarer") : i === (seat + players.length - 1) % players.length
          ? t("sheet.last_bidder") : "";
    });
    const contract = byTestId(`contract-${seat}`);
    if (contract && contract.value === "") contract.value = level.value;
  };
  strain.addEventListener("change", () => { refillLevels(); updateSums(); });
  frisch.addEventListener("change", () => { refillLevels(); updateSums(); });
  declarer.addEventListener("change", () => { markBidders(); updateSums(); });
  passed.addEventListener("change", () => { $("played-fields").hidden = passed.checked; updateSums(); });
  refillLevels();
}

// Tricks by side, the revokes of each side, and the honours where this table counts them.
function renderSidesForm(box) {
  const size = sheet.next.hand_size;
  const names = sideNames(sheet.players);
  const tricks = [0, 1].map((side) => numberInput(`side-tricks-${side}`, 0, size, t("sheet.side", {
    side: SIDES[side], names: names[side] })));
  tricks.forEach((input, side) => input.addEventListener("input", () => {
    const value = wholeValue(input);
    if (value !== null && value <= size) tricks[1 - side].value = String(size - value);
    updateSums();
  }));
  const revokes = [0, 1].map((side) => numberSelect(`side-revoke-${side}`, 0, 3, 0,
                                                    `${t("sheet.revokes")}: ${t("sheet.side_short", { side: SIDES[side] })}`));
  const table = el("table", { class: "sheet-entry" },
                   el("thead", {}, el("tr", {}, el("th", { scope: "col" }), el("th", { scope: "col", text: t("sheet.tricks") }),
                                      el("th", { scope: "col", title: t("sheet.classic_revoke_help"), text: t("sheet.revokes") }))),
                   el("tbody", {}, [0, 1].map((side) => el("tr", {},
                     el("th", { scope: "row" }, el("span", { text: t("sheet.side_short", { side: SIDES[side] }) }),
                        el("small", { class: "sheet-note", text: names[side] })),
                     el("td", {}, tricks[side]), el("td", {}, revokes[side])))));
  box.append(table);
  if (entryHas("honours") && sheet.rules.honours) {
    const honours = el("select", { id: "honours", testid: "honours" },
                       el("option", { value: "2", text: t("sheet.honours.even") }),
                       [[3, 0], [4, 0], [3, 1], [4, 1]].map(([count, side]) => el("option", {
                         value: String(side === 0 ? count : 4 - count),
                         text: t("sheet.honours.held", { side: SIDES[side], count }) })));
    box.append(field("sheet.honours", honours));
  }
  box.append(el("p", { class: "sheet-hint", text: t("sheet.classic_revoke_help") }));
}

// Each player's contract and tricks; bidding starts left of the dealer, so the dealer bids last.
function renderContractsForm(box) {
  box.append(playerRows(entryHas("revokes"), contractKey()));
  const last = sheet.next.dealer;
  $(`entry-note-${last}`).textContent = t("sheet.last_bidder");
}

function headingKey(size) {
  return traits().hand_size_varies ? "sheet.dealer_cards" : "sheet.dealer_tricks";
}

function renderHandForm() {
  const form = $("hand-form");
  form.hidden = !sheet.mine || sheet.over;
  if (form.hidden) return;
  const next = sheet.next;
  $("hand-heading").replaceChildren(
    el("span", { text: t("sheet.hand_title", { number: next.number }) }),
    el("small", { class: "sheet-hint", text: t(headingKey(next.hand_size), {
      name: sheet.players[next.dealer], size: next.hand_size }) }));
  const box = $("hand-fields");
  box.replaceChildren();
  if (entryHas("declarer")) renderAuctionForm(box);
  else if (entryHas("contracts")) renderContractsForm(box);
  else renderSidesForm(box);
  for (const input of box.querySelectorAll("input, select")) input.addEventListener("input", updateSums);
  showError($("hand-error"), "");
  updateSums();
}

function readSeats(prefix) {
  return sheet.players.map((_, seat) => wholeValue(byTestId(`${prefix}-${seat}`)));
}

// The live sums under the form: contracts (over or under) and tricks.
function updateSums() {
  const size = sheet.next.hand_size;
  const parts = [];
  if (!entryHas("contracts")) {
    const tricks = [0, 1].map((side) => wholeValue(byTestId(`side-tricks-${side}`)) ?? 0);
    parts.push(t("sheet.sum_tricks", { sum: tricks[0] + tricks[1], size }));
  } else if (!(entryHas("declarer") && byTestId("all-passed").checked)) {
    const contracts = readSeats("contract").map((c) => c ?? 0);
    const tricks = readSeats("tricks").map((c) => c ?? 0);
    const sum = contracts.reduce((a, b) => a + b, 0);
    const ou = sum === size ? "—" : t(sum > size ? "sheet.over" : "sheet.under");
    parts.push(t(traits().contract_word === "bid" ? "sheet.sum_bids" : "sheet.sum_contracts", { sum, ou }));
    parts.push(t("sheet.sum_tricks", { sum: tricks.reduce((a, b) => a + b, 0), size }));
  }
  $("hand-sums").textContent = parts.join(" · ");
}

// The entry of the form, or an Error with a message in the page's language.
function readEntry() {
  const size = sheet.next.hand_size;
  const n = sheet.players.length;
  const sumOf = (values) => values.reduce((a, b) => a + b, 0);
  if (!entryHas("contracts")) {
    const tricks = [0, 1].map((side) => wholeValue(byTestId(`side-tricks-${side}`)));
    if (tricks.includes(null)) throw new Error(t("sheet.err.missing"));
    if (sumOf(tricks) !== size) throw new Error(t("sheet.err.tricks", { sum: sumOf(tricks), size }));
    const entry = { tricks, revokes: [0, 1].map((side) => Number(byTestId(`side-revoke-${side}`).value)) };
    if (entryHas("honours") && sheet.rules.honours) {
      const a = Number(byTestId("honours").value);
      entry.honours = [a, 4 - a];
    }
    return entry;
  }
  if (entryHas("declarer") && byTestId("all-passed").checked) return { declarer: null };
  const contracts = readSeats("contract");
  const tricks = readSeats("tricks");
  let lastBidder = sheet.next.dealer;
  const entry = { contracts, tricks };
  if (entryHas("declarer")) {
    if (byTestId("declarer").value === "") throw new Error(t("sheet.err.declarer"));
    entry.declarer = Number(byTestId("declarer").value);
    entry.level = Number(byTestId("level").value);
    entry.strain = byTestId("strain").value;
    entry.frisch = byTestId("frisch") ? Number(byTestId("frisch").value) : 0;
    lastBidder = (entry.declarer + n - 1) % n;
  }
  if (entryHas("revokes")) entry.revokes = sheet.players.map((_, seat) => Number(byTestId(`revoke-${seat}`).value));
  if (contracts.includes(null) || tricks.includes(null)) throw new Error(t("sheet.err.missing"));
  if (sumOf(contracts) === size) {
    throw new Error(t("sheet.err.sum", { size, name: sheet.players[lastBidder] }));
  }
  if (entryHas("declarer") && contracts[entry.declarer] < entry.level) {
    throw new Error(t("sheet.err.declarer_min", { name: sheet.players[entry.declarer], level: entry.level }));
  }
  if (sumOf(tricks) !== size) throw new Error(t("sheet.err.tricks", { sum: sumOf(tricks), size }));
  return entry;
}

async function addHand(event) {
  event.preventDefault();
  let entry;
  try {
    entry = readEntry();
  } catch (error) {
    showError($("hand-error"), error.message);
    return;
  }
  const button = byTestId("add-hand");
  button.disabled = true;
  try {
    sheet = await whist.api(`/api/sheets/${encodeURIComponent(sheet.id)}/hands`, {
      method: "POST", body: { entry, number: sheet.next.number } });
    renderSheet();
  } catch (error) {
    showError($("hand-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

// Put a hand's entry back into the form, so that a hand taken back can be corrected.
function fillForm(entry) {
  const set = (id, value) => { const node = byTestId(id); if (node && value !== undefined) node.value = String(value); };
  if (!entryHas("contracts")) {
    entry.tricks.forEach((n, side) => set(`side-tricks-${side}`, n));
    (entry.revokes || []).forEach((n, side) => set(`side-revoke-${side}`, n));
    if (entry.honours) set("honours", entry.honours[0]);
  } else if (entryHas("declarer") && entry.declarer === null) {
    byTestId("all-passed").checked = true;
    $("played-fields").hidden = true;
  } else {
    if (entryHas("declarer")) {
      set("strain", entry.strain);
      set("frisch", entry.frisch);
      byTestId("strain").dispatchEvent(new Event("change"));
      set("level", entry.level);
      set("declarer", entry.declarer);
      byTestId("declarer").dispatchEvent(new Event("change"));
    }
    (entry.revokes || []).forEach((n, seat) => set(`revoke-${seat}`, n));
    entry.contracts.forEach((n, seat) => set(`contract-${seat}`, n));
    entry.tricks.forEach((n, seat) => set(`tricks-${seat}`, n));
  }
  updateSums();
}

// Every field of the form as typed, complete or not, to survive a redraw.
function formValues() {
  const values = {};
  for (const node of $("hand-fields").querySelectorAll("input[data-testid], select[data-testid]")) {
    values[node.dataset.testid] = node.type === "checkbox" ? node.checked : node.value;
  }
  return values;
}

function restoreValues(values) {
  // The auction's strain and Frisch rounds decide which levels the level field offers: set them first.
  const order = ["all-passed", "strain", "frisch"];
  const ids = [...order, ...Object.keys(values).filter((id) => !order.includes(id))];
  for (const id of ids) {
    const node = byTestId(id);
    if (!node || !(id in values)) continue;
    if (node.type === "checkbox") node.checked = values[id];
    else node.value = values[id];
    if (order.includes(id) || id === "declarer") node.dispatchEvent(new Event("change"));
  }
  updateSums();
}

function renderUndo() {
  const button = $("undo");
  const last = sheet.hands[sheet.hands.length - 1];
  button.hidden = !sheet.mine || !last;
  clearTimeout(undoArmed);
  undoArmed = null;
  button.classList.remove("armed");
  if (last) button.textContent = t("sheet.undo", { number: last.number });
}

async function undo() {
  const button = $("undo");
  const last = sheet.hands[sheet.hands.length - 1];
  if (!last) return;
  if (!undoArmed) { // the first tap only asks for a second one
    button.textContent = t("sheet.undo_confirm", { number: last.number });
    button.classList.add("armed");
    undoArmed = setTimeout(renderUndo, 4000);
    return;
  }
  showError($("undo-error"), "");
  try {
    sheet = await whist.api(`/api/sheets/${encodeURIComponent(sheet.id)}/hands/${last.number}`, { method: "DELETE" });
    renderSheet();
    if (!$("hand-form").hidden) fillForm(last.entry);
  } catch (error) {
    showError($("undo-error"), error.message);
    renderUndo();
  }
}

function renderSheet() {
  $("sheet-view").hidden = false;
  document.title = `${t(`sheet.game.${sheet.game}`)} · ${t("sheet.page_title")}`;
  $("sheet-title").textContent = traits().partnerships ? sideNames(sheet.players).join(" – ") : sheet.players.join(" · ");
  $("sheet-rules").textContent = rulesLine();
  $("sheet-readonly").hidden = sheet.mine;
  const table = $("score-table");
  table.replaceChildren();
  table.classList.toggle("sheet-table-classic", traits().partnerships);
  if (traits().partnerships) renderSidesTable(table);
  else renderPlayersTable(table);
  if (!sheet.hands.length) {
    table.append(el("tbody", {}, el("tr", {}, el("td", { colspan: "99", class: "sheet-hint", text: t("sheet.empty") }))));
  }
  renderGameOver();
  renderHandForm();
  renderUndo();
}

// Start ---------------------------------------------------------------------------------------------

async function main() {
  whist.applyLanguage();
  whist.initTopBar();  // the same top bar as every page: links and the language buttons
  const match = window.location.pathname.match(/^\/sheet\/([^/]+)\/?$/);
  try {
    me = (await whist.api("/api/me")).user;
    if (match) {
      sheet = await whist.api(`/api/sheets/${match[1]}`);
      renderSheet();
      $("hand-form").addEventListener("submit", addHand);
      $("undo").addEventListener("click", undo);
    } else {
      rulesByGame = await whist.rules.load();
      $("game").addEventListener("change", renderGameOptions);
      $("create-form").addEventListener("submit", createSheet);
      await showList();
    }
  } catch (error) {
    showError($("page-error"), error.message);
  }
  // A new language redraws what the script wrote; the form keeps what was typed where it can.
  document.addEventListener("whist:language", () => {
    if (sheet) {
      const kept = formValues();
      renderSheet();
      restoreValues(kept);
    } else if (!$("list-view").hidden) {
      document.title = `${t("sheet.page_title")} · ${t("site.name")}`;
      renderGameOptions();
      renderSheetList().catch((error) => showError($("page-error"), error.message));
    }
  });
}

whist.ready.then(main);
