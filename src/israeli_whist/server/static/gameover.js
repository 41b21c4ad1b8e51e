// The end of a game on the table page: the final standings with each player's total, contracts
// made, best and worst hand; links to the replay, its analysis and the lobby; and "Play again",
// the same seats and rules with a new deal, each person asked over the table's socket
// (server/rematch.py, docs/server-protocol.md "Play again"). The table page calls draw() at each
// render and question() when a "rematch" message comes; the page's own socket sends the answers.
"use strict";

whist.gameover = (() => {
  const element = whist.element;
  let asked = null;  // the last "rematch" message: the question as it stands, or null
  let page = null;  // what draw() was last given
  // Whether this page saw the question open before the new game started: only then does it move
  // there by itself. A page opened later (back from the new game, say) offers a link instead.
  let follow = false;
  let moving = false;

  // Each seat's hands, contracts made, and its best and worst hand (of two or more hands played).
  function facts(score, seat) {
    const played = score.hands.filter((hand) => !hand.cancelled);
    const bid = played.filter((hand) => hand.contracts.length && hand.contracts[seat] >= 0);
    const made = bid.filter((hand) => hand.tricks_won[seat] === hand.contracts[seat]).length;
    const byPoints = [...played].sort((a, b) => b.points[seat] - a.points[seat] || a.number - b.number);
    return { bid: bid.length, made, best: byPoints[0], worst: byPoints[byPoints.length - 1], played: played.length };
  }

  // A hand's points kept left to right in a Hebrew line ("+50", not "50+"): isolated, as <bdi dir=ltr>.
  const points = (value) => `\u2066${finished.signed(value)}\u2069`;

  // Each fact kept whole on its line (a phone wraps between them, not inside "(hand 2)").
  function factLine(score, seat) {
    const found = facts(score, seat);
    const parts = [];
    if (found.bid) parts.push(whist.t("gameover.made", { made: found.made, all: found.bid }));
    if (found.played > 1) {
      parts.push(whist.t("gameover.best", { points: points(found.best.points[seat]), n: found.best.number }));
      parts.push(whist.t("gameover.worst", { points: points(found.worst.points[seat]), n: found.worst.number }));
    }
    return parts;
  }

  function standings(state, seatName) {
    const { score } = state;
    const order = [...score.totals.keys()].sort((a, b) => score.places[a] - score.places[b] || a - b);
    const games = state.view.traits.games_to_target && score.games_won.some((g) => g > 0);
    return element("ol", { className: "places" }, order.map((s) => element("li", {
      dataset: { seat: String(s), place: String(score.places[s]) }, className: s === state.you ? "mine" : "",
    }, [
      element("div", { className: "place-line" }, [
        element("span", { className: "place", text: `${score.places[s]}.` }), " ",
        element("bdi", { className: "name", text: seatName(s) }), " ",
        element("bdi", { className: "total", dir: "ltr", dataset: { testid: `final-total-${s}` }, text: String(score.totals[s]) }),
        element("span", { className: "muted" }, [` ${whist.t("standings.points")}`,
          games ? ` · ${whist.t("standings.games", { games: score.games_won[s] })}` : null]),
      ]),
      element("div", { className: "facts muted", dataset: { testid: `facts-${s}` } },
        factLine(score, s).flatMap((fact, i) => [i ? " · " : null, element("span", { text: fact })])),
    ])));
  }

  function links(tableId, invite) {
    const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
    const replay = `/replay/${encodeURIComponent(tableId)}${query}`;
    return element("nav", { className: "gameover-links", ariaLabel: whist.t("gameover.links") }, [
      element("a", { href: replay, dataset: { testid: "gameover-replay" }, text: whist.t("gameover.replay") }),
      element("a", { href: `${replay}#analysis`, dataset: { testid: "gameover-analysis" }, text: whist.t("gameover.analysis") }),
      element("a", { href: "/", dataset: { testid: "gameover-lobby" }, text: whist.t("standings.lobby") }),
    ]);
  }

  function button(text, testid, answer, primary = false) {
    const made = element("button", { type: "button", className: primary ? "primary" : "", dataset: { testid }, text });
    made.addEventListener("click", () => {
      made.disabled = true;  // until the question comes back changed (or an error)
      page.send({ type: "rematch", do: answer, id: `r-${answer}-${Date.now()}` });
    });
    return made;
  }

  // Who is asked, and how each answered: the people's seats (bots say yes at once).
  function answers(state, seatName) {
    return element("p", { className: "rematch-answers" }, asked.answers.flatMap((answer, seat) =>
      state.table.seats[seat].kind === "bot" ? [] : [element("span", { className: `answer ${answer}`, dataset: { seat: String(seat), answer } }, [
        element("bdi", { text: seatName(seat) }), `: ${whist.t(`rematch.answer.${answer}`)}`,
      ])]));
  }

  // "Play again", as it stands for this page's seat (a spectator only follows it).
  function rematch(state, seatName) {
    const mine = state.you >= 0 ? (asked ? asked.answers[state.you] : "none") : "watching";
    const box = element("section", { className: "rematch", ariaLabel: whist.t("rematch.title"), dataset: { testid: "rematch", answer: mine } });
    const parts = [element("h3", { text: whist.t("rematch.title") })];
    if (asked && asked.next) {
      if (mine === "accepted" && follow) {
        parts.push(element("p", { text: whist.t("rematch.moving") }));
        if (!moving) location.assign(`/table/${encodeURIComponent(asked.next)}`);
        moving = true;
      } else {
        parts.push(element("p", { text: whist.t("rematch.started") }),
          element("a", { href: `/table/${encodeURIComponent(asked.next)}`, dataset: { testid: "rematch-next" }, text: whist.t("rematch.open_next") }));
      }
    } else if (!asked) {
      parts.push(element("p", { className: "muted", text: whist.t("rematch.hint") }));
      if (state.you >= 0) parts.push(button(whist.t("rematch.accept"), "play-again", "accept", true));
    } else {
      const who = asked.asked_by === state.you ? whist.t("rematch.you_asked") : whist.t("rematch.asked", { name: seatName(asked.asked_by) });
      parts.push(element("p", { text: who }), answers(state, seatName));
      const out = asked.answers.some((a) => a === "declined" || a === "left");
      if (mine === "waiting" || mine === "declined" || mine === "left") {
        if (mine === "declined") parts.push(element("p", { className: "muted", text: whist.t("rematch.you_declined") }));
        const choices = [button(whist.t("rematch.accept"), "rematch-accept", "accept", true)];
        if (mine !== "declined") choices.push(button(whist.t("rematch.decline"), "rematch-decline", "decline"));
        parts.push(element("div", { className: "rematch-buttons" }, choices));
      } else if (mine === "accepted" && out) {
        parts.push(element("p", { text: whist.t("rematch.someone_out") }), element("div", { className: "rematch-buttons" }, [
          button(whist.t("rematch.with_bots"), "rematch-start", "start", true),
          button(whist.t("rematch.decline"), "rematch-decline", "decline")]));
      } else if (mine === "accepted") {
        parts.push(element("p", { className: "muted", text: whist.t("rematch.waiting") }),
          element("div", { className: "rematch-buttons" }, [button(whist.t("rematch.decline"), "rematch-decline", "decline")]));
      }
    }
    box.replaceChildren(...parts);
    return box;
  }

  // The standings panel of a finished game; `given`: { panel, state, seatName, tableId, invite, send }.
  function draw(given) {
    page = given;
    const { panel, state, seatName } = given;
    panel.hidden = !state.score.over;
    if (panel.hidden) return;
    // An event's board is played once: the way on to its results instead of "Play again" (eventlink.js).
    const next = state.table.event ? whist.eventlink.box(state.table.event) : rematch(state, seatName);
    panel.replaceChildren(element("h2", { text: whist.t("standings.title") }), standings(state, seatName),
      links(given.tableId, given.invite), next);
  }

  // A "rematch" message from the server: the question changed.
  function question(message) {
    follow = follow || (message.next === null);
    asked = message;
    if (page) draw(page);
  }

  return { draw, question, facts };
})();
