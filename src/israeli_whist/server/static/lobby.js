// The lobby: sign in (guest or account), create a table, and list the public tables to join or watch.
"use strict";

// The bot levels come from GET /api/levels with their ratings; these serve until it answers.
let botLevels = ["random", "easy", "basic", "medium", "hard", "expert"].map((level) => ({ level, ratings: {} }));
const REFRESH_MS = 3000;

const $ = (id) => document.getElementById(id);
let user = null;
let tables = [];
let rulesByGame = {};  // GET /api/rules: every game's options and presets
let rulesForm = null;  // the chosen game's options form

const element = whist.element;

// Sign-in ------------------------------------------------------------------------------------

// Signed in (a guest with a name, or an account), the table's form comes first and the sign-in is
// one line under it; signed out, the sign-in comes first, the account's form folded on a phone.
const WIDE = window.matchMedia("(min-width: 700px)");  // as in lobby.css: the two sign-in forms side by side

function showUser() {
  $("signed-in").hidden = !user;
  $("signed-out").hidden = Boolean(user);
  if (user) {
    $("user-name").textContent = user.name;
    $("user-guest").hidden = !user.guest;
  }
  $("claim").hidden = !(user && user.guest);
  $("lobby").insertBefore($("create"), user ? $("signin") : $("tables-panel"));
}

function unfoldAccountWhenWide() {
  $("account-box").open = WIDE.matches;
}

async function signIn(path, body) {
  $("signin-error").textContent = "";
  try {
    user = (await whist.api(path, { method: "POST", body })).user;
    showUser();
    await refreshTables();
  } catch (error) {
    $("signin-error").textContent = error.message;
  }
}

function wireSignIn() {
  unfoldAccountWhenWide();
  WIDE.addEventListener("change", unfoldAccountWhenWide);
  $("guest-form").addEventListener("submit", (event) => {
    event.preventDefault();
    signIn("/api/guest", { name: $("guest-name").value });
  });
  $("account-form").addEventListener("submit", (event) => {
    event.preventDefault();
    signIn("/api/login", { login: $("login").value, password: $("password").value });
  });
  $("register-button").addEventListener("click", () => {
    if (!$("account-form").reportValidity()) return;
    const name = $("display-name").value.trim();
    signIn("/api/register", { login: $("login").value, password: $("password").value, name: name || null });
  });
  $("claim-form").addEventListener("submit", (event) => {  // this guest becomes the account
    event.preventDefault();
    signIn("/api/register", { login: $("claim-login").value, password: $("claim-password").value, claim: user.id });
  });
  $("logout-button").addEventListener("click", () => signIn("/api/logout", {}));
  // Ends every session of this player: other devices, and any copy of the cookie.
  $("logout-everywhere-button").addEventListener("click", () => signIn("/api/logout-everywhere", {}));
}

// Creating a table ---------------------------------------------------------------------------

function seatCount() {
  return rulesForm ? rulesForm.seats() : 4;
}

// Every game of the registry: the page lists the three it has words for, and any other by its title.
function listGames() {
  const select = $("game");
  const listed = new Set([...select.options].map((option) => option.value));
  for (const game of Object.values(rulesByGame)) {
    if (!listed.has(game.name)) select.append(element("option", { value: game.name, text: whist.words(`game.${game.name}`, game.title) }));
  }
}

// The chosen game's presets and its options form; a preset fills the form with its values.
function fillPresets() {
  const game = rulesByGame[$("game").value];
  if (!game) return;
  const chosen = $("preset").value;
  $("preset").replaceChildren(...game.presets.map(({ name }) =>
    element("option", { value: name === "standard" ? "" : name, text: whist.presetLabel(name) })));
  if (game.presets.some(({ name }) => (name === "standard" ? "" : name) === chosen)) $("preset").value = chosen;
  fillRulesForm(game);
}

function fillRulesForm(game) {
  const same = rulesForm && rulesForm.game === game.name;  // a language change: keep what was chosen
  const kept = same ? rulesForm.values() : null;
  const open = same && rulesForm.advanced.open;
  rulesForm = whist.rules.form(game, fillSeats);
  rulesForm.game = game.name;
  if (kept) rulesForm.fill(kept);
  else rulesForm.applyPreset($("preset").value);
  rulesForm.advanced.open = open;
  $("rules-form").replaceChildren(rulesForm.common, rulesForm.advanced);
}

function choosePreset() {
  if (rulesForm) rulesForm.applyPreset($("preset").value);
  fillSeats();
}

function fillSeats() {
  const box = $("seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  const n = seatCount();
  const rows = [];
  for (let seat = 0; seat < n; seat += 1) {
    const select = element("select", { id: `seat-${seat}`, dataset: { seat: String(seat) } }, seatOptions());
    select.value = before[seat] ?? (seat === 0 ? "me" : "bot:basic");
    select.addEventListener("change", () => {
      if (select.value !== "me") return;  // one "me" only: another seat that said so opens for a human
      for (const other of box.querySelectorAll("select")) if (other !== select && other.value === "me") other.value = "human";
    });
    rows.push(element("label", { className: "seat-choice" },
      [element("span", { text: whist.t("create.seat", { n: seat + 1 }) }), select]));
  }
  if (rulesByGame[$("game").value]?.traits.partnerships) rows.push(element("p", { className: "muted", text: whist.t("create.partners") }));
  box.replaceChildren(...rows);
}

// Me, open for a human, and each bot level with its rating in the chosen game, on the
// leaderboard's scale (mu - 3 sigma), so a player can tell how hard the table will be; a level
// the ladder has not measured in that game (null) says it is unrated, and before the levels
// load (no entry) the name stands alone.
function botText(name, rating) {
  if (rating === null) return whist.t("seat.bot_unrated", { bot: name });
  return rating ? whist.t("seat.bot_rated", { bot: name, rating: rating.rating }) : name;
}

function seatOptions() {
  const game = $("game").value;
  const bots = botLevels.map(({ level, ratings }) => {
    const rating = ratings[game];
    const name = whist.t(`seat.bot_${level}`);
    const option = element("option", { value: `bot:${level}`, text: botText(name, rating) });
    if (rating) option.title = `μ ${rating.mu.toFixed(2)}, σ ${rating.sigma.toFixed(2)}`;
    return option;
  });
  return [element("option", { value: "me", text: whist.t("seat.me") }),
    element("option", { value: "human", text: whist.t("seat.human") }), ...bots];
}

async function loadLevels() {
  try {
    botLevels = (await whist.api("/api/levels")).levels;
  } catch (error) {
    // The menu keeps its levels without ratings: a table can still be set up.
  }
}

function tableRequest() {
  const game = $("game").value;
  const preset = $("preset").value || null;
  const options = rulesForm ? rulesForm.options(preset) : {};
  const choices = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const seats = choices.map((c) => (c.startsWith("bot:") ? { kind: "bot", level: c.slice(4) } : { kind: "human" }));
  const timer = $("move-timer").value.trim();
  return {
    game, preset, options, seats, public: $("public").checked,
    move_timer: timer ? Number(timer) : null, take_seat: choices.includes("me") ? choices.indexOf("me") : null,
    hints: $("hints").checked,  // a practice table: the form says its games are not rated
  };
}

async function createTable(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  if (!user) {
    $("create-error").textContent = whist.t("signin.needed");
    return;
  }
  try {
    const table = await whist.api("/api/tables", { method: "POST", body: tableRequest() });
    location.href = tableLink(table, !table.public);
  } catch (error) {
    $("create-error").textContent = error.status === 401 ? whist.t("signin.needed") : error.message;
  }
}

function tableLink(table, withInvite) {
  const path = `/table/${encodeURIComponent(table.id)}`;
  return withInvite && table.invite ? `${path}?invite=${encodeURIComponent(table.invite)}` : path;
}

function wireCreate() {
  $("game").addEventListener("change", () => { fillPresets(); fillSeats(); });
  $("preset").addEventListener("change", choosePreset);
  $("create-form").addEventListener("submit", createTable);
}

// The list of tables -------------------------------------------------------------------------

async function refreshTables() {
  try {
    tables = (await whist.api("/api/tables")).tables;
    $("tables-error").textContent = "";
  } catch (error) {
    $("tables-error").textContent = error.message;
  }
  renderTables();
}

function renderTables() {
  $("no-tables").hidden = tables.length > 0;
  $("tables").replaceChildren(...tables.map(tableItem));
}

function tableItem(table) {
  const title = whist.words(`game.${table.game}`, rulesByGame[table.game]?.title ?? table.game) + (table.preset ? ` · ${whist.t(`preset.${table.preset}`)}` : "");
  const progress = table.hands_total
    ? whist.t("tables.hand", { played: Math.min(table.hands_played + 1, table.hands_total), total: table.hands_total })
    : whist.t("tables.hands_played", { played: table.hands_played });
  const seated = table.you >= 0;
  const seats = table.seats.map((seat) => {
    const item = element("li", { className: "lobby-seat", dataset: { seat: String(seat.seat) } });
    item.append(element("span", { className: "seat-number", text: `${seat.seat + 1}.` }));
    if (seat.kind === "bot") {
      item.append(element("span", { className: "muted", text: whist.t("tables.bot", { level: whist.t(`level.${seat.level}`) }) }));
    } else if (seat.taken) {
      item.append(element("bdi", { text: seat.name }));
      if (seat.away) item.append(element("span", { className: "muted", text: ` (${whist.t("tables.away")})` }));
    } else {
      item.append(element("span", { className: "muted", text: whist.t("tables.free") }));
      if (!seated) {
        const join = element("button", { type: "button", className: "primary small", text: whist.t("tables.join"),
          dataset: { testid: `join-${table.id}-${seat.seat}` } });
        join.addEventListener("click", () => joinTable(table, seat.seat));
        item.append(join);
      }
    }
    return item;
  });
  const link = element("a", { href: tableLink(table, false), className: "watch",
    text: whist.t(seated ? "tables.return" : "tables.watch"), dataset: { testid: `watch-${table.id}` } });
  return element("li", { className: "table-item", dataset: { table: table.id } }, [
    element("div", { className: "table-head" }, [
      element("strong", { text: title }),
      element("span", { className: "muted", text: progress }),
      link,
    ]),
    element("ul", { className: "lobby-seats" }, seats),
  ]);
}

async function joinTable(table, seat) {
  $("tables-error").textContent = "";
  if (!user) {
    $("tables-error").textContent = whist.t("signin.needed");
    $("guest-name").focus();
    return;
  }
  try {
    await whist.api(`/api/tables/${encodeURIComponent(table.id)}/join`, { method: "POST", body: { seat } });
    location.href = tableLink(table, false);
  } catch (error) {
    $("tables-error").textContent = error.message;
    refreshTables();
  }
}

// Start --------------------------------------------------------------------------------------

async function start() {
  whist.applyLanguage();
  document.title = whist.t("site.name");
  whist.initTopBar();
  wireSignIn();
  wireCreate();
  try {
    [rulesByGame] = await Promise.all([whist.rules.load(), loadLevels()]);
  } catch (error) {
    $("create-error").textContent = error.message;
  }
  listGames();
  fillPresets();
  fillSeats();
  document.addEventListener("whist:language", () => {
    document.title = whist.t("site.name");
    fillPresets();
    fillSeats();
    renderTables();
  });
  try {
    user = (await whist.api("/api/me")).user;
  } catch (error) {
    $("signin-error").textContent = error.message;
  }
  showUser();
  await refreshTables();
  whist.drawn();
  setInterval(() => { if (!document.hidden) refreshTables(); }, REFRESH_MS);
}

whist.ready.then(start);
