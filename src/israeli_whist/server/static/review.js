// The review of a finished game on its replay page (issue 45; the engine is israeli_whist.bots.review,
// its JSON in docs/review.md, the routes in docs/server-protocol.md). The server reviews a game once,
// as a background job shared by everyone who opens it: the page starts it, shows its progress, then
// draws each player's accuracy and losses, a graph of the expected points along the game, the
// options of the decision at the replay's step, where each player's points went in the hand shown,
// and "learn from your mistakes", which walks a seat back to each of its mistakes.
// replay.js calls attach() once the game is loaded, render() whenever it draws, and hides() for each
// seat's cards: in learn mode the board shows only what the learning seat saw.
"use strict";

const whistReview = (() => {
  const { $, el, tNodes, cardList } = finished;
  const SVG = "http://www.w3.org/2000/svg";
  const POLL_MS = 3000; // a review takes minutes: every 3 s is often enough for its progress bar
  const PHASES = ["auction", "frisch", "contract", "play"];
  const VERDICTS = ["inaccuracy", "mistake", "blunder"];
  const MARKED = new Set(["mistake", "blunder"]); // the key moments: on the graph, and in learn mode
  const SHOWN_OPTIONS = 6; // at a step, the best few (and the choice made); the rest behind "all options"
  // The action space (israeli_whist.core.actions): cards, then pass, the trump calls, the contracts.
  const PASS = 52;
  const BID_BASE = 53;
  const STRAINS = ["C", "D", "H", "S", "NT"];
  const CONTRACT_BASE = BID_BASE + 17 * STRAINS.length;

  let page = null; // from replay.js: { game, tableId, suffix, place(), moveTo(hand, step), redraw() }
  let job = null; // the server's last answer: { state, done, total, review }
  let review = null;
  let problem = ""; // why the review could not be asked for or made, in words
  let timer = null;
  let viewer = -1; // the signed-in person's seat in this game, if they played it
  let learn = null; // { seat, list: [{ hand, decision }], index, picked, revealed }
  let learnSeat = null; // the seat chosen for learn mode in the panel
  let drawnWidth = 0; // the graph's width when drawn: it is drawn again when the page's width changes

  const url = () => `/api/history/${encodeURIComponent(page.tableId)}/review${page.suffix}`;
  const wanted = () => new URLSearchParams(location.hash.slice(1)).has("review");

  function attach(options) {
    page = options;
    whist.api("/api/me").then((answer) => {
      const id = answer.user ? answer.user.id : null;
      viewer = id === null ? -1 : page.game.players.findIndex((p) => p.user_id === id);
      render();
    }).catch(() => {});
    window.addEventListener("resize", () => { if (review && graphWidth() !== drawnWidth) render(); });
    document.addEventListener("visibilitychange", () => { if (!document.hidden && busy() && timer === null) ask("GET"); });
    // Awaited before the page is first shown, so that a review already made does not push the page
    // down as it comes.
    return ask(wanted() ? "POST" : "GET");
  }

  const busy = () => job !== null && (job.state === "queued" || job.state === "running");

  // The job's state, or a new job (POST). State "none": no review asked for yet; a wait asked for
  // (429, or a busy 503, with Retry-After): the same asked again then; a job under way: its state
  // asked again every few seconds. Opened with #review (the table's link), the page asks for it.
  async function ask(method) {
    clearTimeout(timer);
    timer = null;
    let wait = null; // ms until the next ask, if there is one
    try {
      const answer = await whist.api(url(), method === "POST" ? { method, body: {} } : {});
      job = answer.state === "none" ? null : answer; // none: never asked for, the page offers to start it
      problem = answer.state === "failed" ? whist.t("review.failed") : "";
      if (answer.state === "done") review = answer.review;
    } catch (error) {
      problem = error.message;
      if (error.retryAfter > 0) wait = error.retryAfter * 1000; // then the same ask again
    }
    if (wait !== null) later(method, wait);
    else if (busy()) later("GET", POLL_MS);
    render();
    if (review && wanted()) {
      $("review-points").scrollIntoView({ block: "start" });
      const place = new URLSearchParams(location.hash.slice(1));
      place.delete("review"); // asked for once: a reload does not scroll there again
      history.replaceState(null, "", `${location.pathname}${location.search}#${place}`);
    }
  }

  // Asked again after a while, and not while the page is hidden (visibilitychange asks on return).
  function later(method, ms) {
    timer = setTimeout(() => {
      timer = null;
      if (!document.hidden) ask(method);
    }, ms);
  }

  // Reading the review ---------------------------------------------------------------------------

  const name = (seat) => `\u2068${finished.seatName(page.game.players[seat])}\u2069`;
  // Numbers set apart left to right (Unicode's left-to-right isolate), so that a minus sign stays before
  // its number, and "12.5 ± 2.1" reads as written, in a Hebrew sentence.
  const ltr = (text) => `\u2066${text}\u2069`;
  // Tenths of a point; hundredths in Classic Whist, whose thresholds are fractions of a point.
  const digitsOf = (found) => (found && found.thresholds.inaccuracy < 1 ? 2 : 1);
  const digits = () => digitsOf(review);
  const points = (value) => ltr(finished.number(value, digits()));
  const lost = (cost) => ltr(`−${finished.number(cost, digits())}`); // a cost, as points lost
  const withError = (value, error) => ltr(whist.t("review.pm", { value: finished.number(value, digits()),
    error: finished.number(error, digits()) }));

  function reviewedHand(number) {
    return review ? review.hands.find((h) => h.number === number) || null : null;
  }

  function decisionAt(number, step) {
    const found = reviewedHand(number);
    return found ? found.decisions.find((d) => d.step === step) || null : null;
  }

  // An action as the page shows it: a card's face, a trump call ("5♠"), pass, or a contract's tricks.
  function actionNode(action) {
    if (action < PASS) return cardList([action]);
    if (action === PASS) return document.createTextNode(whist.t("replay.pass"));
    if (action < CONTRACT_BASE) {
      const level = Math.floor((action - BID_BASE) / STRAINS.length) + 1;
      const strain = STRAINS[(action - BID_BASE) % STRAINS.length];
      const call = el("bdi", "", whist.bidLabel(level, strain));
      call.dir = strain === "NT" ? "auto" : "ltr";
      return call;
    }
    return document.createTextNode(String(action - CONTRACT_BASE));
  }

  function verdictBadge(verdict) {
    return verdict ? el("span", `rv-badge ${verdict}`, whist.t(`review.verdict.${verdict}`)) : null;
  }

  // A jump to a hand's step, as a link that moves the replay there (replay.js reads the address).
  function stepLink(number, step, content) {
    const link = el("a", "rv-jump", content);
    const index = page.game.hands.findIndex((h) => h.number === number);
    link.href = `#hand=${index + 1}&step=${step}`;
    return link;
  }

  // Drawing ------------------------------------------------------------------------------------

  function render() {
    if (!page) return;
    $("replay").classList.toggle("learning", learn !== null);
    renderPanel();
    if (learn) renderLearn();
    else renderStep();
  }

  function renderPanel() {
    const body = $("review-body");
    const parts = [];
    if (problem) parts.push(el("p", "error", problem));
    if (review) {
      parts.push(budgetNote(), playersBox(), graphBox(), learnLauncher(), pointsBox());
    } else if (busy()) {
      parts.push(progressBox());
    } else {
      const start = el("button", "", whist.t(job ? "review.again" : "review.start"));
      start.type = "button";
      start.dataset.testid = "review-start";
      start.addEventListener("click", () => ask("POST"));
      parts.push(el("p", "muted", whist.t("review.offer")), start);
    }
    body.replaceChildren(...parts);
    body.setAttribute("aria-busy", String(busy()));
  }

  function progressBox() {
    const bar = el("progress", "", "");
    bar.max = Math.max(job.total || 0, 1);
    bar.value = job.done || 0;
    const text = job.state === "queued" ? whist.t("review.queued")
      : whist.t("review.progress", { done: job.done || 0, total: job.total || 0 });
    const box = el("p", "rv-progress", [el("span", "", text), bar]);
    box.dataset.testid = "review-progress";
    bar.setAttribute("aria-label", text);
    return box;
  }

  function budgetNote() {
    const { deals, par_playouts: playouts } = review.budget;
    const { inaccuracy, mistake, blunder } = review.thresholds;
    return el("p", "muted rv-note", [whist.t("review.note", { deals, playouts }), " ",
      whist.t("review.thresholds", { inaccuracy, mistake, blunder })]);
  }

  // Per player: the accuracy, the points lost in each kind of decision, the verdicts, the three
  // costliest decisions (each a link to its step), the score beside the expert's par.
  function playersBox() {
    const phases = PHASES.filter((p) => review.hands.some((h) => h.decisions.some((d) => d.phase === p)));
    const cards = review.seats.map((seat, s) => {
      const losses = phases.map((p) => el("li", "", [el("span", "", whist.t(`review.phase.${p}`)),
        el("strong", "", points(seat.cost_by_phase[p] || 0))]));
      const costly = seat.costliest.filter((c) => c.cost > 0).map((c) => {
        const decision = decisionAt(c.hand, c.step);
        const chosen = decision ? actionNode(decision.chosen) : document.createTextNode(c.chosen_name);
        const best = decision ? actionNode(decision.options[0].action) : document.createTextNode(c.best_name);
        return el("li", "", [stepLink(c.hand, c.step, tNodes("review.costly", { hand: c.hand,
          phase: whist.t(`review.phase.${c.phase}`), chosen, best, cost: lost(c.cost) }))]);
      });
      const box = el("section", `rv-player seat-${s}${s === viewer ? " me" : ""}`, [
        el("h3", "", [el("span", `rv-swatch seat-${s}`, ""), el("bdi", "", name(s))]),
        el("p", "rv-accuracy", [el("strong", "", finished.percent(seat.accuracy)), " ", whist.t("review.accuracy"),
          el("span", "muted", ` · ${whist.t("review.mean_cost", { cost: Number((seat.mean_cost || 0).toFixed(digits())) })}`)]),
        el("p", "rv-verdicts", VERDICTS.map((v) => el("span", `rv-badge ${seat.verdicts[v] ? v : "none"}`,
          whist.t(`review.count.${v}`, { n: seat.verdicts[v] || 0 })))),
        el("p", "rv-label", whist.t("review.lost")),
        el("ul", "rv-phases", losses),
        el("p", "rv-label", whist.t("review.costliest")),
        costly.length ? el("ol", "rv-costly", costly) : el("p", "muted", whist.t("review.none_costly")),
        el("p", "muted", whist.t("review.game_par", { score: ltr(finished.number(seat.score)),
          par: seat.par === null || seat.par === undefined ? "—" : withError(seat.par, seat.par_error) })),
      ]);
      box.dataset.testid = `review-player-${s}`;
      return box;
    });
    return el("div", "rv-players", cards);
  }

  // The graph ------------------------------------------------------------------------------------

  function svg(tag, attributes = {}, children = []) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    node.append(...children.filter((c) => c !== null));
    return node;
  }

  const graphWidth = () => Math.max(280, Math.min(($("review-body").clientWidth || 640), 960));

  // Each seat's line: 0 at the start, then its timeline: at each of its decisions its expected total
  // after the hand, at each hand's end (step null) its real total. x counts the replay's steps over
  // the game.
  function series() {
    const offsets = new Map();
    let x = 0;
    for (const h of page.game.hands) {
      offsets.set(h.number, x);
      x += h.steps.length - 1;
    }
    const ends = new Map(page.game.hands.map((h) => [h.number, offsets.get(h.number) + h.steps.length - 1]));
    const lines = review.players.map((_, seat) => [{ x: 0, y: 0 }, ...(review.timeline[seat] || [])
      .filter((entry) => offsets.has(entry.hand))
      .map((entry) => ({ x: entry.step === null ? ends.get(entry.hand) : offsets.get(entry.hand) + entry.step,
        y: entry.expected, entry }))]);
    return { offsets, span: Math.max(x, 1), lines };
  }

  // Round steps for the points axis: 1, 2 or 5 times a power of ten, about four of them.
  function ticks(low, high) {
    const raw = (high - low) / 4 || 1;
    const power = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
    const found = [];
    for (let v = Math.floor(low / step) * step; ; v += step) {
      found.push(Math.round(v * 1e6) / 1e6);
      if (v >= high) return found; // the last at or above the highest value: no line leaves the top
    }
  }

  function graphBox() {
    const { offsets, span, lines } = series();
    const rtl = document.documentElement.dir === "rtl";
    const width = graphWidth();
    drawnWidth = width;
    const height = width < 500 ? 220 : 280;
    const margin = { side: 44, end: 12, top: 12, bottom: 26 };
    const values = lines.flat().map((p) => p.y);
    const axis = ticks(Math.min(0, ...values), Math.max(0, ...values));
    const low = axis[0];
    const high = axis.at(-1) === low ? low + 1 : axis.at(-1);
    // Time runs the way the page reads: left to right in English, right to left in Hebrew.
    const left = rtl ? margin.end : margin.side;
    const plot = width - margin.side - margin.end;
    const px = (x) => (rtl ? left + plot - (x / span) * plot : left + (x / span) * plot);
    const py = (y) => margin.top + (1 - (y - low) / (high - low)) * (height - margin.top - margin.bottom);
    const labelX = rtl ? width - margin.side + 6 : margin.side - 6;
    const grid = axis.map((v) => svg("g", { class: v === 0 ? "rv-zero" : "rv-grid" }, [
      svg("line", { x1: left, x2: left + plot, y1: py(v), y2: py(v) }),
      svg("text", { x: labelX, y: py(v) + 4, "text-anchor": rtl ? "start" : "end" }, [finished.number(v)]),
    ]));
    // Hand boundaries, each hand's number under its span (where there is room for it).
    const bounds = review.hands.map((h) => {
      const start = offsets.get(h.number) ?? 0;
      const length = (page.game.hands.find((g) => g.number === h.number)?.steps.length ?? 1) - 1;
      const room = Math.abs(px(start + length) - px(start)) >= 16;
      return svg("g", { class: "rv-hand" }, [
        svg("line", { x1: px(start), x2: px(start), y1: margin.top, y2: height - margin.bottom }),
        room ? svg("text", { x: px(start + length / 2), y: height - 8, "text-anchor": "middle" }, [String(h.number)]) : null,
      ]);
    });
    const { hand, step } = page.place();
    const nowX = px((offsets.get(page.game.hands[hand].number) ?? 0) + step);
    const now = svg("line", { class: "rv-now", x1: nowX, x2: nowX, y1: margin.top, y2: height - margin.bottom });
    const paths = lines.map((at, seat) => svg("polyline", { class: `rv-line seat-${seat}`,
      points: at.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(" ") }));
    const marks = lines.flatMap((at, seat) => at.filter((p) => p.entry && p.entry.step !== null
      && MARKED.has(p.entry.verdict)).map((p) => graphMark(p.entry, seat, px(p.x), py(p.y))));
    const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "group",
      "aria-labelledby": "review-graph-caption", class: "rv-graph" }, [...grid, ...bounds, now, ...paths, ...marks]);
    chart.dataset.testid = "review-graph";
    const legend = el("ul", "rv-legend", [
      ...review.players.map((_, seat) => el("li", "", [el("span", `rv-swatch seat-${seat}`, ""), el("bdi", "", name(seat))])),
      el("li", "", [el("span", "rv-key mistake", ""), whist.t("review.verdict.mistake")]),
      el("li", "", [el("span", "rv-key blunder", ""), whist.t("review.verdict.blunder")]),
    ]);
    const caption = el("figcaption", "", [el("strong", "", whist.t("review.graph")), " ",
      el("span", "muted", whist.t("review.graph_note"))]);
    caption.id = "review-graph-caption";
    return el("figure", "rv-figure", [caption, chart, legend]);
  }

  // A mistake (a circle) or a blunder (a diamond) on a seat's line: a link to its step, named for
  // a screen reader and shown on hover.
  function graphMark(entry, seat, x, y) {
    const shape = entry.verdict === "blunder"
      ? svg("path", { d: `M${x},${y - 7}L${x + 7},${y}L${x},${y + 7}L${x - 7},${y}Z` })
      : svg("circle", { cx: x, cy: y, r: 5 });
    const decision = decisionAt(entry.hand, entry.step);
    const label = whist.t("review.mark", { name: name(seat), verdict: whist.t(`review.verdict.${entry.verdict}`),
      hand: entry.hand, cost: lost(decision ? decision.cost : 0) });
    const index = page.game.hands.findIndex((g) => g.number === entry.hand);
    const link = svg("a", { href: `#hand=${index + 1}&step=${entry.step}`, class: `rv-mark ${entry.verdict} seat-${seat}`,
      "aria-label": label }, [svg("title", {}, [label]), shape]);
    link.dataset.testid = "review-mark";
    return link;
  }

  // Where the points went in the hand shown: each seat's score beside the expert's par for its cards,
  // split into what the cards gave (the par), what the decisions cost and the rest (the others' play
  // and the lie of the cards): score = par − decisions + rest.
  function pointsBox() {
    const number = page.game.hands[page.place().hand].number;
    const found = reviewedHand(number);
    const title = el("h3", "", whist.t("review.points_title", { n: number }));
    title.id = "review-points-title";
    if (!found || found.cancelled) return section("review-points", [title, el("p", "muted", whist.t("review.points_none"))]);
    return section("review-points", [title, ...pointsTable(found, { name, viewer, places: digits(), title: title.id })]);
  }

  // A hand's "where the points went" table and its note: here, and under the table's hand summary
  // (handreview.js), where the other seats' rows hold only their score and par. ``name(seat)`` names
  // a row, ``viewer`` is marked, ``places`` decimals are shown, ``title`` is the id of its heading.
  function pointsTable(found, { name: seatName, viewer: me, places, title }) {
    // The sign inside the isolate with its number: "−3.5" and "+2.0" in a Hebrew row too.
    const signed = (value, sign) => ltr(`${sign}${finished.number(value, places)}`);
    const head = el("tr", "", ["review.player", "review.score", "review.par", "review.decisions", "review.rest"]
      .map((key) => el("th", "", whist.t(key))));
    head.firstChild.scope = "col";
    const rows = found.seats.map((seat, s) => {
      const known = seat.decisions_cost !== undefined;
      const row = el("tr", s === me ? "me" : "", [
        el("th", "", [el("bdi", "", seatName(s))]),
        el("td", seat.score < 0 ? "minus" : "", ltr(finished.number(seat.score))),
        parCell(seat, places),
        !known ? el("td", "", "—") : el("td", seat.decisions_cost > 0 ? "minus" : "",
          signed(seat.decisions_cost, seat.decisions_cost > 0 ? "−" : "")),
        !known ? el("td", "", "—") : el("td", "", signed(seat.rest, seat.rest >= 0 ? "+" : "")),
      ]);
      row.firstChild.scope = "row";
      row.dataset.testid = `review-points-${s}`;
      return row;
    });
    const table = el("table", "rv-points", [el("thead", "", [head]), el("tbody", "", rows)]);
    // Scrolled sideways where a phone is too narrow for it: a region the keyboard can reach.
    const scroll = el("div", "rv-scroll", [table]);
    scroll.tabIndex = 0;
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-labelledby", title);
    return [scroll, el("p", "muted rv-note", whist.t("review.points_note", { playouts: found.par ? found.par.playouts : 0 }))];
  }

  // The par, its error under it: a narrow column on a phone.
  function parCell(seat, places) {
    if (seat.par === null || seat.par === undefined) return el("td", "", "—");
    return el("td", "", [el("span", "", ltr(finished.number(seat.par, places))),
      el("small", "rv-error", ltr(whist.t("review.pm_error", { error: finished.number(seat.par_error, places) })))]);
  }

  function section(id, content) {
    const box = el("section", "rv-section", content);
    box.id = id;
    box.dataset.testid = id;
    return box;
  }

  // The decision at the replay's step ------------------------------------------------------------

  function renderStep() {
    const box = $("review-step");
    const { hand, step } = page.place();
    const number = page.game.hands[hand].number;
    const decision = review && step > 0 ? decisionAt(number, step) : null;
    box.hidden = !review || step === 0 || !reviewedHand(number) || reviewedHand(number).cancelled;
    if (box.hidden) return;
    if (!decision) {
      box.replaceChildren(el("p", "muted", whist.t("review.forced")));
      return;
    }
    const head = el("p", "rv-step-head", [
      ...tNodes("review.choice", { name: name(decision.seat), action: actionNode(decision.chosen),
        value: withError(decision.value, decision.options.find((o) => o.action === decision.chosen)?.error ?? 0) }),
      " ", verdictBadge(decision.verdict) || "",
      decision.proven ? el("span", "rv-badge proven", whist.t("review.proven")) : "",
    ]);
    const cost = decision.cost > 0
      ? el("p", "rv-cost", whist.t("review.cost", { cost: withError(decision.cost, decision.cost_error),
        accuracy: finished.percent(decision.accuracy) }))
      : el("p", "rv-cost good", whist.t("review.best_choice"));
    box.replaceChildren(head, cost, optionsList(decision, true));
  }

  // The options, best first, each with its expected points: the best few shown, the rest behind a
  // toggle; the choice made and the best marked. In learn mode (values false) they are buttons.
  function optionsList(decision, values, onPick = null) {
    const best = decision.options[0];
    const shown = decision.options.filter((o, i) => i < SHOWN_OPTIONS || o.action === decision.chosen);
    const item = (option) => {
      const marks = [];
      if (values && option.action === decision.chosen) marks.push(el("span", "rv-tag", whist.t("review.played")));
      if (values && option.value >= best.value) marks.push(el("span", "rv-tag best", whist.t("review.best")));
      const content = [el("span", "rv-action", [actionNode(option.action)]),
        values ? el("span", "rv-value", withError(option.value, option.error)) : null, ...marks];
      const classes = [values && option.action === decision.chosen ? "chosen" : "",
        values && option.value >= best.value ? "best" : ""].filter(Boolean).join(" ");
      if (!onPick) return el("li", classes, content);
      const button = el("button", classes, content);
      button.type = "button";
      button.dataset.action = String(option.action);
      button.addEventListener("click", () => onPick(option));
      return el("li", "", [button]);
    };
    const list = el("ul", `rv-options${onPick ? " picks" : ""}`, shown.map(item));
    list.dataset.testid = "review-options";
    list.setAttribute("aria-label", whist.t("review.options", { n: decision.options.length }));
    if (shown.length === decision.options.length) return list;
    const all = el("details", "rv-more", [el("summary", "", whist.t("review.all_options", { n: decision.options.length })),
      el("ul", `rv-options${onPick ? " picks" : ""}`, decision.options.filter((o) => !shown.includes(o)).map(item))]);
    return el("div", "", [list, all]);
  }

  // Learn from your mistakes -------------------------------------------------------------------

  const mistakesOf = (seat) => review.hands.flatMap((hand) => hand.decisions
    .filter((d) => d.seat === seat && MARKED.has(d.verdict)).map((decision) => ({ hand, decision })));

  function learnLauncher() {
    if (learnSeat === null) {
      learnSeat = viewer >= 0 ? viewer : Math.max(0, review.seats.findIndex((_, s) => mistakesOf(s).length));
    }
    const select = el("select", "", review.players.map((_, seat) => {
      const option = el("option", "", `${finished.seatName(page.game.players[seat])} (${whist.t("review.count.mistakes",
        { n: mistakesOf(seat).length })})`);
      option.value = String(seat);
      return option;
    }));
    select.value = String(learnSeat);
    select.dataset.testid = "learn-seat";
    select.addEventListener("change", () => { learnSeat = Number(select.value); render(); });
    const count = mistakesOf(learnSeat).length;
    const start = el("button", "", whist.t("review.learn"));
    start.type = "button";
    start.disabled = count === 0;
    start.dataset.testid = "learn-start";
    start.addEventListener("click", () => startLearning(learnSeat));
    return el("div", "rv-learn-start", [
      el("label", "", [el("span", "", whist.t("review.learn_seat")), select]),
      start,
      count === 0 ? el("span", "muted", whist.t("review.no_mistakes", { name: name(learnSeat) })) : null,
    ]);
  }

  function startLearning(seat) {
    learn = { seat, list: mistakesOf(seat), index: 0, picked: null, revealed: false };
    goToMistake(0);
    $("review-step").scrollIntoView({ block: "start" });
  }

  // The position before the mistake: the seat to act, as it saw it.
  function goToMistake(index) {
    learn.index = index;
    learn.picked = null;
    learn.revealed = false;
    const { hand, decision } = learn.list[index];
    page.moveTo(page.game.hands.findIndex((g) => g.number === hand.number), decision.step - 1);
  }

  function atMistake() {
    if (!learn) return false;
    const { hand, decision } = learn.list[learn.index];
    const place = page.place();
    return page.game.hands[place.hand].number === hand.number && place.step === decision.step - 1;
  }

  // A pick as good as the best: the best itself, or within the sampling error of the two values
  // (1.96 standard errors of their difference).
  const asGoodAsBest = (option, best) =>
    option.action === best.action || best.value - option.value <= 1.96 * Math.hypot(best.error, option.error);

  function renderLearn() {
    const box = $("review-step");
    box.hidden = false;
    const { hand, decision } = learn.list[learn.index];
    const best = decision.options[0];
    const chosenOption = decision.options.find((o) => o.action === decision.chosen);
    const where = decision.trick ? whist.t("review.where_trick", { hand: hand.number, trick: decision.trick })
      : whist.t("review.where", { hand: hand.number, phase: whist.t(`review.phase.${decision.phase}`) });
    const parts = [
      el("h2", "", whist.t("review.learn_title", { name: name(learn.seat) })),
      el("p", "muted", `${whist.t("review.learn_count", { n: learn.index + 1, total: learn.list.length })} · ${where}`),
    ];
    if (!atMistake()) {
      const back = button("review.back", "learn-back", () => goToMistake(learn.index));
      box.replaceChildren(...parts, el("p", "", whist.t("review.learn_away")), back, learnNav());
      return;
    }
    parts.push(el("p", "", tNodes("review.learn_ask", { name: name(learn.seat), action: actionNode(decision.chosen),
      verdict: whist.t(`review.verdict.${decision.verdict}`), cost: lost(decision.cost) })));
    parts.push(optionsList(decision, learn.revealed, learn.revealed ? null : (option) => {
      learn.picked = option;
      renderLearn();
    }));
    const feedback = el("p", "rv-feedback", "");
    feedback.setAttribute("aria-live", "polite");
    feedback.dataset.testid = "learn-feedback";
    const picked = learn.picked;
    if (picked && !learn.revealed) {
      feedback.classList.add(picked.action === decision.chosen ? "bad" : asGoodAsBest(picked, best) ? "good" : "bad");
      const action = actionNode(picked.action);
      feedback.replaceChildren(...(picked.action === decision.chosen ? tNodes("review.pick_played", { action })
        : asGoodAsBest(picked, best) ? tNodes("review.pick_good", { action })
          : tNodes("review.pick_worse", { action })));
    } else if (learn.revealed) {
      feedback.classList.add("good");
      feedback.replaceChildren(...tNodes("review.revealed", { action: actionNode(best.action),
        value: withError(best.value, best.error), played: actionNode(decision.chosen),
        played_value: withError(chosenOption ? chosenOption.value : decision.value, chosenOption ? chosenOption.error : 0) }));
    }
    parts.push(feedback);
    const reveal = button("review.reveal", "learn-reveal", () => { learn.revealed = true; renderLearn(); });
    reveal.disabled = learn.revealed;
    box.replaceChildren(...parts, el("div", "rv-learn-buttons", [reveal, ...learnNav().children]));
    if (picked && !learn.revealed) box.querySelector(`button[data-action="${picked.action}"]`)?.classList.add("picked");
  }

  function learnNav() {
    const previous = button("review.previous_mistake", "learn-previous", () => goToMistake(learn.index - 1));
    previous.disabled = learn.index === 0;
    const next = button("review.next_mistake", "learn-next", () => goToMistake(learn.index + 1));
    next.disabled = learn.index === learn.list.length - 1;
    const stop = button("review.stop", "learn-stop", () => {
      learn = null;
      page.redraw();
    });
    return el("div", "rv-learn-buttons", [previous, next, stop]);
  }

  function button(key, testid, onClick) {
    const node = el("button", "", whist.t(key));
    node.type = "button";
    node.dataset.testid = testid;
    node.addEventListener("click", onClick);
    return node;
  }

  // In learn mode, at the mistake's position, the others' cards are face down: the seat is judged
  // by what it knew, and so is the person learning.
  const hides = (seat) => atMistake() && seat !== learn.seat;

  return { attach, render, hides, pointsTable, digitsOf };
})();
