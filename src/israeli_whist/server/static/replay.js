// The replay of a finished game: every hand step by step, card by card, with all hands shown.
// Buttons, or the keyboard: arrows step (the arrow that points forward in the page's reading
// direction goes on), Home and End go to the hand's start and end, Page Up and Page Down to the
// hand before and after. The place is kept in the address (#hand=2&step=14).
"use strict";

whist.ready.then(() => {
  const { $, el } = finished;
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const invite = new URLSearchParams(location.search).get("invite");
  let game = null;
  let analysis = null; // the search's verdicts, loaded after the replay: it may take a while
  let analysisError = null;
  let analysing = null; // the number of the hand being analysed, if one is
  let askAgainAt = null; // when the server said to ask for it again (Date.now() time), while the page waits
  let hand = 0; // index into game.hands
  let step = 0; // index into that hand's steps
  // Opened as the game's analysis (#analysis, the game-over page's link): the analysis is scrolled
  // into view once it is shown, the first time only.
  let toAnalysis = new URLSearchParams(location.hash.slice(1)).has("analysis");

  async function load() {
    const suffix = invite ? `?invite=${encodeURIComponent(invite)}` : "";
    try {
      game = await whist.api(`/api/games/${encodeURIComponent(tableId)}${suffix}`);
    } catch (error) {
      if (error.status === 409) {
        const link = el("a", "", whist.t("replay.to_table"));
        link.href = `/table/${encodeURIComponent(tableId)}${suffix}`;
        $("error").replaceChildren(el("span", "", `${whist.t("replay.playing")} `), link);
      } else {
        finished.showError(error);
      }
      return;
    }
    $("record-link").href = `/api/games/${encodeURIComponent(tableId)}/record${suffix}`;
    $("record-link").download = `whist-${tableId}.json`;  // the game record, saved as a file
    readPlace();
    $("game").hidden = false;
    render();
    loadAnalysis(suffix);
  }

  // Hand by hand, the hand on the screen first: each hand's verdicts show as soon as it is done,
  // with the progress beside them, rather than after the whole game's search.
  async function loadAnalysis(suffix) {
    const base = `/api/games/${encodeURIComponent(tableId)}/analysis${suffix}${suffix ? "&" : "?"}hand=`;
    for (;;) {
      const done = new Set(analysis ? analysis.hands.map((h) => h.number) : []);
      const shown = game.hands[hand].number;
      const next = done.has(shown) ? game.hands.map((h) => h.number).find((n) => !done.has(n)) : shown;
      if (next === undefined) break;
      analysing = next;
      renderProgress();
      try {
        const found = await whist.api(base + next);
        analysis = analysis ? { ...analysis, hands: [...analysis.hands, ...found.hands] } : found;
      } catch (error) {
        if (error.retryAfter > 0) { // too many asked from here (429), or the server's hands full (503)
          await waitToAskAgain(error.retryAfter);
          continue;
        }
        analysisError = error.message;
        break;
      } finally {
        analysing = null;
      }
      render();
    }
    render();
  }

  // The wait the server asked for, counted down on the screen, before the same hand is asked again.
  async function waitToAskAgain(seconds) {
    askAgainAt = Date.now() + seconds * 1000;
    const tick = setInterval(render, 1000);
    render();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    clearInterval(tick);
    askAgainAt = null;
  }

  // What the page is doing about the analysis of hand n: analysing it, or waiting to ask again.
  function progressText(n) {
    const done = analysis ? analysis.hands.length : 0;
    if (askAgainAt !== null) {
      return whist.t("an.waiting", { n, seconds: Math.max(1, Math.ceil((askAgainAt - Date.now()) / 1000)) });
    }
    return whist.t("an.progress", { n, done, total: game.hands.length });
  }

  function renderProgress() {
    const box = $("analysis-progress");
    const done = analysis ? analysis.hands.length : 0;
    box.hidden = analysing === null;
    box.dataset.done = String(done);
    box.dataset.waiting = String(askAgainAt !== null);
    if (analysing === null) return;
    box.replaceChildren(el("span", "", progressText(analysing)), el("progress", "", ""));
    const bar = box.querySelector("progress");
    bar.max = game.hands.length;
    bar.value = done;
  }

  // Position ------------------------------------------------------------------------------------

  const steps = () => game.hands[hand].steps;

  function readPlace() {
    const place = new URLSearchParams(location.hash.slice(1));
    const h = parseInt(place.get("hand") || "1", 10) - 1;
    hand = Number.isInteger(h) && h >= 0 && h < game.hands.length ? h : 0;
    const s = parseInt(place.get("step") || "0", 10);
    step = Number.isInteger(s) && s >= 0 && s < steps().length ? s : 0;
  }

  function moveTo(newHand, newStep) {
    hand = Math.min(Math.max(newHand, 0), game.hands.length - 1);
    step = Math.min(Math.max(newStep, 0), steps().length - 1);
    history.replaceState(null, "", `${location.pathname}${location.search}#hand=${hand + 1}&step=${step}`);
    render();
  }

  // The actions taken up to the place shown: the game's messages carry theirs (server/chatstore.py).
  const actionsTaken = () => game.hands.slice(0, hand).reduce((n, h) => n + h.steps.length - 1, step);

  // Next and previous run on across hands: the end of one hand leads to the deal of the next.
  function next() {
    if (step < steps().length - 1) moveTo(hand, step + 1);
    else if (hand < game.hands.length - 1) moveTo(hand + 1, 0);
  }

  function previous() {
    if (step > 0) moveTo(hand, step - 1);
    else if (hand > 0) moveTo(hand - 1, game.hands[hand - 1].steps.length - 1);
  }

  // Drawing -------------------------------------------------------------------------------------

  function render() {
    if (!game) return;
    $("title").textContent = `${whist.t("replay.title")}: ${finished.gameTitle(game)}`;
    const played = game.hands.filter((h) => !h.cancelled).length;
    $("summary").textContent = whist.t("replay.summary", { date: finished.date(game.finished_at),
      hands: whist.t("replay.hands", { n: played }) });
    renderResults();
    renderControls();
    const current = steps()[step];
    $("action").replaceChildren(...describe(steps(), step));
    renderBoard(current);
    whistChat.replayed($("replay-chat"), game.chat.filter((said) => said.version <= actionsTaken()));
    finished.showHints(game, game.hands[hand].number, step);  // not rated, and the hints used
    renderVerdict();
    renderProgress();
    renderHandAnalysis();
  }

  function renderResults() {
    const order = game.players.map((p) => p.seat).sort((a, b) => game.places[a] - game.places[b] || a - b);
    $("results").replaceChildren(...order.map((seat) => el("li", game.places[seat] === 1 ? "winner" : "", [
      el("span", "place", String(game.places[seat])),
      el("span", "name", [finished.seatName(game.players[seat]), finished.guestTag(game.players[seat])]),
      el("span", "total", finished.number(game.totals[seat])),
    ])));
  }

  function renderControls() {
    const select = $("hand-select");
    select.replaceChildren(...game.hands.map((h, i) => {
      const label = whist.t("replay.hand_option", { n: h.number });
      const option = el("option", "", h.cancelled ? whist.t("replay.cancelled", { hand: label }) : label);
      option.value = String(i);
      return option;
    }));
    select.value = String(hand);
    $("step").textContent = whist.t("replay.step", { n: step, total: steps().length - 1 });
    const atStart = hand === 0 && step === 0;
    const atEnd = hand === game.hands.length - 1 && step === steps().length - 1;
    $("first").disabled = step === 0;
    $("previous").disabled = atStart;
    $("next").disabled = atEnd;
    $("last").disabled = step === steps().length - 1;
    for (const id of ["first", "previous", "next", "last"]) {
      const label = whist.t(`replay.${id}`);
      $(id).title = label;
      $(id).setAttribute("aria-label", label);
    }
  }

  // A seat's name set apart from the text around it (Unicode's first-strong isolate), so that a
  // Hebrew name in an English sentence, or the reverse, does not reorder its neighbours.
  const name = (seat) => `\u2068${finished.seatName(game.players[seat])}\u2069`;

  // What happened at this step, said in words (its cards and calls as bidNode shows them); the
  // action's meaning depends on the phase before it.
  function describe(all, index) {
    const now = all[index];
    const after = turn(now) ? [` ${turn(now)}`] : [];
    if (index === 0) return [whist.t("act.deal", { name: name(now.dealer) }), ...after];
    const before = all[index - 1];
    const { seat, name: action } = now.action;
    const who = name(seat);
    if (before.phase === "auction") {
      return [...(action === "pass" ? [whist.t("act.pass", { name: who })]
        : tNodes("act.bid", { name: who, bid: bidNode("auction", [action]) })), ...after];
    }
    if (before.phase === "frisch") return [...tNodes("act.frisch", { name: who, card: cardList([finished.cardOfName(action)]) }), ...after];
    if (before.phase === "contract") return [whist.t("act.contract", { name: who, n: action }), ...after];
    const trick = now.tricks_played > before.tricks_played && now.last_trick
      ? [` ${whist.t("act.trick", { name: name(now.last_trick.winner) })}`] : [];
    return [...tNodes("act.play", { name: who, card: cardList([finished.cardOfName(action)]) }), ...trick, ...after];
  }

  function turn(state) {
    if (state.phase === "over") return whist.t("act.over");
    if (state.phase === "cancelled") return whist.t("act.cancelled");
    return state.player >= 0 ? whist.t("act.turn", { name: name(state.player) }) : "";
  }

  // Where each seat sits, seen from above with seat 1 at the bottom; play goes clockwise (to the left).
  function area(seat, players) {
    if (players !== 4) return "ring";
    return ["bottom", "left", "top", "right"][seat];
  }

  function renderBoard(state) {
    const board = $("board");
    const players = state.hands.length;
    board.classList.toggle("four", players === 4);
    const handData = game.hands[hand];
    const done = state.phase === "over" || state.phase === "cancelled";
    const totalsAfter = game.players.map((_, s) => game.hands.slice(0, hand + 1).reduce((sum, h) => sum + h.points[s], 0));
    const picks = frischPicks(steps(), step);
    const seats = state.hands.map((cards, seat) => seatBox(state, seat, cards, done ? handData.points[seat] : null,
      done ? totalsAfter[seat] : null, picks));
    const centre = centreBox(state);
    if (players === 4) {
      board.replaceChildren(centre, ...seats);
    } else {
      board.replaceChildren(centre, el("div", "ring", seats));
    }
  }

  // The cards chosen so far in the Frisch round under way: chosen cards stay in their hands until
  // every seat has chosen, then all pass at once.
  function frischPicks(all, index) {
    const picks = new Set();
    const round = all[index].frisch_round;
    for (let i = index; i > 0 && all[i].phase === "frisch" && all[i].frisch_round === round; i--) {
      if (all[i - 1].phase === "frisch") picks.add(finished.cardOfName(all[i].action.name));
    }
    return picks;
  }

  function seatBox(state, seat, cards, points, total, picks) {
    const marks = [];
    if (state.dealer === seat) marks.push(el("span", "mark", whist.t("replay.dealer")));
    if (state.declarer === seat && state.traits.trump_auction && state.high_bid) {
      marks.push(el("span", "mark declarer", whist.t("replay.declarer")));
    }
    const line = [];
    if (state.contracts.length && state.contracts[seat] >= 0) line.push(el("span", "", whist.t("replay.bid", { n: state.contracts[seat] })));
    if (state.phase === "play" || state.phase === "over") line.push(el("span", "", whist.t("replay.took", { n: state.tricks_won[seat] })));
    if (points !== null) line.push(el("strong", points < 0 ? "minus" : "", finished.signed(points)));
    if (total !== null) line.push(el("span", "muted", whist.t("replay.total", { n: finished.number(total) })));
    const box = el("section", `rp-seat area-${area(seat, state.hands.length)}${state.player === seat ? " turn" : ""}`, [
      el("div", "rp-seat-head", [el("span", "rp-name", name(seat)), ...marks]),
      line.length ? el("div", "rp-line", line) : null,
      handCards(cards, state, picks),
    ]);
    box.dataset.testid = `seat-${seat}`;
    return box;
  }

  // A hand in suit groups (spades, hearts, clubs, diamonds: the colours alternate), high cards first;
  // the turned card and the cards chosen for the Frisch are marked.
  function handCards(cards, state, picks) {
    const mark = (c) => (picks.has(c) ? "picked" : c === state.turned_card ? "turned" : "");
    const groups = [];
    for (const card of whist.handOrder(cards)) {
      if (!groups.length || whist.suitOf(groups.at(-1).at(-1)) !== whist.suitOf(card)) groups.push([]);
      groups.at(-1).push(card);
    }
    const runs = groups.map((g) => el("span", "suit-run", g.map((c) => finished.cardChip(c, mark(c)))));
    const box = el("div", "rp-hand", runs);
    box.dir = "ltr";
    return box;
  }

  function centreBox(state) {
    const parts = [];
    const info = [];
    if (state.trump >= 0) {
      info.push(el("span", "", whist.t("replay.trump", { trump: state.trump === 4 ? whist.t("replay.no_trump") : whist.SUITS[state.trump] })));
    } else if (state.high_bid) {
      info.push(el("span", "", whist.t("replay.high_bid", { bid: finished.bidText(state.high_bid), name: name(state.declarer) })));
    }
    if (state.over_under) {
      const sum = state.contracts.reduce((a, b) => a + b, 0);
      info.push(el("span", "", whist.t(`replay.${state.over_under}`, { sum })));
    }
    if (state.turned_card >= 0) {
      info.push(el("span", "", [el("span", "", `${whist.t("replay.turned")} `), finished.cardChip(state.turned_card)]));
    }
    if (info.length) parts.push(el("div", "rp-info", info));
    if (state.calls.length && state.phase !== "play" && state.phase !== "over") parts.push(callsBox(state));
    parts.push(trickBox(state));
    return el("div", "rp-centre", parts);
  }

  function callsBox(state) {
    const calls = state.calls.map(([, seat, call]) => el("li", "", [
      el("span", "muted", `${name(seat)}: `),
      el("span", "", call === "pass" ? whist.t("replay.pass") : finished.bidText(call)),
    ]));
    return el("div", "rp-calls", [el("span", "rp-label", whist.t("replay.calls")), el("ol", "", calls)]);
  }

  // The trick under way, or the one just completed (its winner marked) until the next card.
  function trickBox(state) {
    let plays = state.trick;
    let winner = -1;
    if (!plays.length && state.last_trick && state.action && state.phase !== "contract") {
      const last = state.last_trick;
      if (state.action.seat === seatOfLastCard(last)) {
        plays = last.cards.map((card, i) => [(last.leader + i) % state.hands.length, card]);
        winner = last.winner;
      }
    }
    const box = el("div", `rp-trick${state.hands.length === 4 ? " four" : ""}`, plays.map(([seat, card]) => {
      const verdict = cardVerdict(card);
      const mistake = verdict && verdict.error;
      const classes = [seat === winner ? "won" : "", mistake ? "mistake" : ""].filter(Boolean).join(" ");
      const played = el("div", `rp-played at-${area(seat, state.hands.length)}`, [
        finished.cardChip(card, classes),
        el("span", "rp-by", name(seat)),
        mistake ? el("span", "rp-cost", `−${verdict.cost}`) : null,
      ]);
      if (mistake) played.dataset.testid = "error-mark";
      return played;
    }));
    box.dir = "ltr";
    return box;
  }

  const seatOfLastCard = (trick) => (trick.leader + trick.cards.length - 1) % game.players.length;

  // Analysis ------------------------------------------------------------------------------------

  function handAnalysis() {
    if (!analysis) return null;
    return analysis.hands.find((h) => h.number === game.hands[hand].number) || null;
  }

  function cardVerdict(card) {
    const found = handAnalysis();
    return found ? found.cards.find((v) => v.card === card) || null : null;
  }

  const botName = () => whist.t(`level.${analysis.bot}`);

  // Numbers set apart left to right (Unicode's left-to-right isolate), so that a minus sign stays
  // before its number in a Hebrew sentence.
  const ltr = (value) => `\u2066${value}\u2069`;

  // What an error cost, "2 points", "1 trick", in the plural form of the number (whist.t).
  const amount = (n) => whist.t(`an.${analysis.unit}`, { n });

  // Cards as the live hand shows them (whist.cards.face): left to right in the hand's order, each
  // card whole on one line, in a Hebrew sentence too («6♠», not «♠6»).
  function cardList(cards) {
    const list = el("bdi", "card-list", whist.handOrder(cards).map((card) => whist.cards.face(card, "mini")));
    list.dir = "ltr";
    return list;
  }

  // A call, a contract, or the three cards of a Frisch pass, as the page shows them. A call is set
  // apart in its own direction: "5♠" left to right in any sentence, «7 ללא שליט» as its words read.
  function bidNode(phase, names) {
    if (phase === "frisch") return cardList(names.map(finished.cardOfName));
    if (phase === "contract") return document.createTextNode(names[0]);
    if (names[0] === "pass") return document.createTextNode(whist.t("replay.pass"));
    const call = el("bdi", "", finished.bidText(names[0]));
    call.dir = names[0].endsWith("NT") ? "auto" : "ltr";
    return call;
  }

  // whist.t with some parameters as nodes (cards, calls): the words around them stay text. Each node
  // stands in the text as a mark of two private-use characters, taken out of the other parameters
  // (a player's name) so that no name can pass for one.
  function tNodes(key, params) {
    const nodes = [];
    const words = Object.fromEntries(Object.entries(params).map(([name, value]) => {
      if (!(value instanceof Node)) return [name, typeof value === "string" ? value.replace(/[\uE000\uE001]/g, "") : value];
      nodes.push(value);
      return [name, `\uE000${nodes.length - 1}\uE001`];
    }));
    return whist.t(key, words).split(/\uE000(\d+)\uE001/).map((part, i) => (i % 2 ? nodes[Number(part)] : part))
      .filter((part) => part !== "");
  }

  // The verdict on the action that led to this step: a card's cost, or the bot's call beside the player's.
  function renderVerdict() {
    const box = $("verdict");
    const action = steps()[step].action;
    box.hidden = !action;
    box.className = "verdict";
    if (!action) return;
    const found = handAnalysis();
    if (!found) {
      box.textContent = analysisError ? whist.t("an.failed", { message: analysisError })
        : progressText(analysing ?? game.hands[hand].number);
      box.classList.add("pending");
      return;
    }
    const card = found && found.cards.find((v) => v.step === step);
    const bid = found && found.bids.find((b) => b.steps.includes(step));
    if (card && !card.analysed) {
      // Not proven: in the depth analysed, but the search ran out of its budget of positions.
      box.textContent = card.proven === false ? whist.t("an.not_proven")
        : whist.t("an.not_analysed", { n: analysis.max_tricks });
      box.classList.add("pending");
    } else if (card && card.error) {
      // "…": the budget ran out before every other card was asked whether it reaches the best.
      const best = card.all_best_cards === false ? el("span", "", [cardList(card.best_cards), " …"]) : cardList(card.best_cards);
      box.replaceChildren(...tNodes("an.error", { cost: amount(card.cost), value: ltr(card.value), best: ltr(card.best),
        cards: best }));
      box.classList.add("bad");
    } else if (card) {
      box.textContent = whist.t("an.best", { value: ltr(card.value) });
      box.classList.add("good");
    } else if (bid) {
      box.replaceChildren(...(bid.agrees ? [whist.t("an.bot_agrees", { bot: botName() })]
        : tNodes("an.bot_differs", { bot: botName(), action: bidNode(bid.phase, bid.suggested) })));
      box.classList.add(bid.agrees ? "good" : "differs");
    } else {
      box.hidden = true;
    }
  }

  // The hand's analysis under the felt: each player's errors and cost, the errors (each one a link
  // to its step), and every call and bid beside the bot's.
  function renderHandAnalysis() {
    const box = $("analysis");
    const found = handAnalysis();
    box.hidden = !found || (found.cancelled && !found.bids.length);
    if (box.hidden) return;
    const seats = game.players.map((_, seat) => el("li", found.errors[seat] ? "has-errors" : "", [
      el("span", "rp-name", name(seat)),
      el("span", "", whist.t("an.player_line",
        { errors: found.errors[seat], cost: amount(found.cost[seat]) })),
    ]));
    const errors = found.cards.filter((v) => v.error).map((v) => jumpItem(v.step, "", tNodes("an.error_item",
      { trick: v.trick, name: name(v.seat), card: cardList([v.card]), cost: amount(v.cost) })));
    const parts = [
      el("h2", "", whist.t("an.title", { n: game.hands[hand].number })),
      el("p", "muted", analysisNote(found)),
      el("ul", "an-players", seats),
      el("h3", "", whist.t("an.errors")),
      errors.length ? el("ol", "an-list", errors) : el("p", "muted", whist.t("an.no_errors")),
    ];
    if (found.bids.length) {
      // The arrow from the player's call to the bot's points the way the line reads (an.bid_differs).
      const bids = found.bids.map((b) => jumpItem(b.steps[0], b.agrees ? "agrees" : "differs",
        tNodes(b.agrees ? "an.bid_agrees" : "an.bid_differs", { name: name(b.seat), phase: whist.t(`an.phase.${b.phase}`),
          actual: bidNode(b.phase, b.actual), bot: botName(), suggested: bidNode(b.phase, b.suggested) })));
      parts.push(el("h3", "", whist.t("an.bids", { bot: botName() })), el("ol", "an-list", bids));
    }
    box.replaceChildren(...parts);
    if (toAnalysis) box.scrollIntoView({ block: "start" });
    toAnalysis = false;
  }

  // What the verdicts cover: the depth only where cards were left out by it, and the cards
  // whose search ran out of its budget.
  function analysisNote(found) {
    const parts = [whist.t(`an.note.${analysis.unit}`)];
    if (found.cards.some((v) => !v.analysed && v.proven !== false)) {
      parts.push(whist.t("an.note.depth", { n: analysis.max_tricks }));
    }
    if (found.not_proven) {
      parts.push(whist.t("an.note.not_proven", { n: found.not_proven }));
    }
    return parts.join(" ");
  }

  function jumpItem(target, className, content) {
    const button = el("button", "link", content);
    button.type = "button";
    button.addEventListener("click", () => moveTo(hand, target));
    const item = el("li", className, [button]);
    item.dataset.testid = className === "differs" ? "bid-differs" : className === "agrees" ? "bid-agrees" : "error-item";
    return item;
  }

  // Events --------------------------------------------------------------------------------------

  function onKey(event) {
    if (!game || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA") return;
    const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
    const backward = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
    const moves = {
      [forward]: next,
      [backward]: previous,
      Home: () => moveTo(hand, 0),
      End: () => moveTo(hand, steps().length - 1),
      PageDown: () => moveTo(hand + 1, 0),
      PageUp: () => moveTo(hand - 1, 0),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  }

  finished.startPage(render);
  $("first").addEventListener("click", () => moveTo(hand, 0));
  $("previous").addEventListener("click", previous);
  $("next").addEventListener("click", next);
  $("last").addEventListener("click", () => moveTo(hand, steps().length - 1));
  $("hand-select").addEventListener("change", (event) => moveTo(parseInt(event.target.value, 10), 0));
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    if (!game) return;
    readPlace();
    render();
  });
  load().finally(whist.drawn);
});
