// The events page: today's event up front with its boards to play, the open events and the
// player's own, a form to create an event (a club's, public or by invite), the player's event
// history, and the events' own ranking against the field.
"use strict";

whist.ready.then(() => {
  const { $ } = finished;
  const element = whist.element;
  const kit = whist.events;
  // How long a new event stays open: the API takes 1 to 720 hours.
  const RANKING_SHOWN = 10;  // the top of the ranking; the whole of it is on the leaderboard
  const DURATIONS = [[1, "hours"], [3, "hours"], [24, "days"], [72, "days"], [168, "days"], [720, "days"]];

  let me = null;
  let daily = null;  // the daily event's detail: its summary, boards, standings
  let list = [];
  let mine = null;  // GET /api/events/mine, for a signed-in player
  let ranking = [];
  let created = null;  // the event just created, with its invite
  let rulesByGame = {};
  let rulesForm = null;

  const { showError } = kit;

  // `withHistory`: also the player's history, which changes only as they play (asked again when
  // the page comes back into sight, not on the timer: it scores up to 50 events).
  async function load(withHistory = true) {
    $("error").textContent = "";
    const [dailyDetail, listed, history, ranked] = await Promise.allSettled([
      whist.api("/api/events/daily").then((summary) => whist.api(`/api/events/${encodeURIComponent(summary.id)}`)),
      whist.api("/api/events"),
      me && withHistory ? whist.api("/api/events/mine") : Promise.resolve(null),
      whist.api(`/api/events/ranking?limit=${RANKING_SHOWN}`),
    ]);
    for (const failed of [dailyDetail, listed, history, ranked]) if (failed.status === "rejected") showError(failed.reason);
    daily = dailyDetail.value ?? daily;  // a refresh that fails keeps what was shown
    list = listed.value?.events ?? list;
    mine = history.value ?? mine;
    ranking = ranked.value?.players ?? ranking;
    render();
  }

  function render() {
    $("guest").hidden = Boolean(me);
    renderDaily();
    renderList();
    renderMine();
    renderRanking();
    renderCreated();
  }

  function renderDaily() {
    $("daily").hidden = !daily;
    if (!daily) return;
    $("daily-link").textContent = kit.name(daily.event);
    $("daily-link").href = kit.eventPath(daily.event.id);
    $("daily-facts").replaceChildren(kit.factLine(daily.event));
    $("daily-boards").replaceChildren(kit.boardList(daily, null, showError));
  }

  // An event of the list: its name (a link), its facts, and the player's progress in it.
  function eventItem(summary, extra = []) {
    const link = element("a", { href: kit.eventPath(summary.id, summary.invite) }, [element("bdi", { text: kit.name(summary) })]);
    const tags = [summary.kind === "daily" ? whist.t("events.daily_tag") : null,
      summary.public ? null : whist.t("events.private_tag")].filter(Boolean);
    return element("li", { className: "event-item", dataset: { event: summary.id } }, [
      element("div", { className: "event-head" }, [element("strong", {}, [link]),
        ...tags.map((tag) => element("span", { className: "event-tag", text: tag })), ...extra]),
      kit.factLine(summary),
    ]);
  }

  function progress(summary) {
    return summary.played ? element("span", { className: "event-progress", text: whist.t("events.progress",
      { played: summary.played, n: summary.boards }) }) : null;
  }

  function renderList() {
    const others = list.filter((summary) => !daily || summary.id !== daily.event.id);
    $("no-events").hidden = others.length > 0;
    $("list").replaceChildren(...others.map((summary) => eventItem(summary, [progress(summary)])));
  }

  function renderMine() {
    $("mine-panel").hidden = !mine;
    if (!mine) return;
    $("no-mine").hidden = mine.events.length > 0;
    $("mine").replaceChildren(...mine.events.map((entry) => {
      const line = element("p", { className: "event-mine-line" }, [
        element("span", { text: whist.t("events.progress", { played: entry.boards, n: entry.event.boards }) }), " · ",
        kit.ltr(kit.percentText(entry.percent)), " · ",
        element("span", { text: whist.t("events.above_line", { above: `\u2066${kit.aboveText(entry.above_average)}\u2069` }) }),
        entry.place ? " · " : null,
        entry.place ? element("strong", { text: whist.t("events.place_of", { place: entry.place, of: entry.of }) }) : null,
      ]);
      const item = eventItem(entry.event);
      item.append(line);
      item.dataset.testid = "mine-item";
      return item;
    }));
  }

  function renderRanking() {
    $("no-ranking").hidden = ranking.length > 0;
    $("ranking").replaceChildren(...(ranking.length ? [kit.standingsTable(ranking, me, "ranking")] : []));
  }

  // Creating an event ----------------------------------------------------------------------------

  function fillDurations() {
    const chosen = $("hours").value || "24";
    $("hours").replaceChildren(...DURATIONS.map(([hours, unit]) => element("option", { value: String(hours),
      text: whist.t(`events.${unit}`, { n: unit === "days" ? hours / 24 : hours }) })));
    $("hours").value = chosen;
  }

  function fillPresets() {
    const game = rulesByGame[$("game").value];
    if (!game) return;
    const chosen = $("preset").value;
    $("preset").replaceChildren(...game.presets.map(({ name }) =>
      element("option", { value: name === "standard" ? "" : name, text: whist.presetLabel(name) })));
    if (game.presets.some(({ name }) => (name === "standard" ? "" : name) === chosen)) $("preset").value = chosen;
    const same = rulesForm && rulesForm.game === game.name;  // a language change keeps what was chosen
    const kept = same ? rulesForm.values() : null;
    rulesForm = whist.rules.form(game);
    rulesForm.game = game.name;
    if (kept) rulesForm.fill(kept);
    else rulesForm.applyPreset($("preset").value);
    // Options a board sets itself, each board being one hand (GET /api/rules, from the game's
    // rules): not offered, so an event's form holds only what it can change.
    for (const name of game.set_by_boards || []) {
      for (const field of [rulesForm.common, rulesForm.advanced]) field.querySelector(`[data-field="${name}"]`)?.remove();
    }
    $("rules-form").replaceChildren(rulesForm.common, rulesForm.advanced);
  }

  async function create(submitted) {
    submitted.preventDefault();
    $("create-error").textContent = "";
    if (!me) {
      $("create-error").textContent = whist.t("signin.needed");
      $("guest-name").focus();
      return;
    }
    const preset = $("preset").value || null;
    try {
      created = await whist.api("/api/events", { method: "POST", body: {
        name: $("event-name").value.trim(), game: $("game").value, preset,
        options: rulesForm ? rulesForm.options(preset) : {}, boards: Number($("boards").value),
        bot_level: $("bot-level").value, public: $("public").checked, hours: Number($("hours").value),
      } });
    } catch (error) {
      $("create-error").textContent = error.message;
      return;
    }
    $("event-name").value = "";
    renderCreated();
    await load();
  }

  // The event just made: a link to it and, for a private one, the invite link to send.
  function renderCreated() {
    $("created").hidden = !created;
    if (!created) return;
    $("created").replaceChildren(
      element("p", {}, [element("strong", { text: whist.t("events.created") }), " ",
        element("a", { href: kit.eventPath(created.id, created.invite), text: created.name, dataset: { testid: "created-link" } })]),
      kit.invitePanel(created));
  }

  async function start() {
    finished.startPage(() => { fillDurations(); fillPresets(); render(); });
    document.title = whist.t("title.events");
    document.addEventListener("whist:language", () => { document.title = whist.t("title.events"); });
    fillDurations();
    $("game").addEventListener("change", fillPresets);
    $("preset").addEventListener("change", () => rulesForm && rulesForm.applyPreset($("preset").value));
    $("create-form").addEventListener("submit", create);
    kit.wireGuestForm($("guest-form"), $("guest-name"), $("guest-error"), (user) => { me = user; load(); });
    [me] = await Promise.all([kit.whoAmI(), whist.rules.load().then((games) => { rulesByGame = games; })
      .catch(showError)]);
    fillPresets();
    await load();
    kit.keepFresh(() => load(false), load);
  }

  start().catch(showError).finally(whist.drawn);
});
