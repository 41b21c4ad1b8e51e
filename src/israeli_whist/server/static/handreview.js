// "Where did my points go?" in the table's hand summary (issue 45): the review of a hand that is over,
// for the player's own seat, asked of the server while the game goes on (docs/server-protocol.md,
// "Where your points went, during the game"); its progress, then the seat's score beside the
// expert's par, what its decisions cost and the rest (review.js's table, the other seats' rows with
// their score and par only). Once the game is over, a link to the hand in the replay's review.
// table.js asks for the box of each hand summary it draws; the box keeps its state between drawings.
"use strict";

const whistHandReview = (() => {
  const { el } = finished;
  const POLL_MS = 3000;
  const boxes = new Map(); // hand number -> { node, job, problem, timer, args }

  // The box under hand `number`'s summary: `seatName(seat)` names the rows, `over` is the game's end.
  function box(args) {
    if (!boxes.has(args.number)) boxes.set(args.number, { node: el("div", "hand-review"), job: null, problem: "", timer: null });
    const entry = boxes.get(args.number);
    entry.args = args;
    draw(entry);
    return entry.node;
  }

  const busy = (entry) => entry.job !== null && (entry.job.state === "queued" || entry.job.state === "running");

  async function ask(entry, method) {
    clearTimeout(entry.timer);
    entry.timer = null;
    const { tableId, number } = entry.args;
    let wait = null; // ms until the next ask, if there is one
    try {
      const answer = await whist.api(`/api/tables/${encodeURIComponent(tableId)}/hands/${number}/review`,
        method === "POST" ? { method, body: {} } : {});
      entry.job = answer;
      entry.problem = answer.state === "failed" ? whist.t("review.failed") : "";
    } catch (error) {
      entry.problem = error.message;
      if (error.retryAfter > 0) wait = error.retryAfter * 1000; // then the same ask again
    }
    if (wait !== null) entry.timer = setTimeout(() => ask(entry, method), wait);
    else if (busy(entry)) entry.timer = setTimeout(() => ask(entry, "GET"), POLL_MS);
    draw(entry);
    // On a phone the summary is a panel over the felt that scrolls: what was asked for comes into view.
    if (entry.job && entry.job.state === "done") entry.node.scrollIntoView({ block: "nearest" });
  }

  function draw(entry) {
    const { job, problem, args } = entry;
    const parts = problem ? [el("p", "error", problem)] : [];
    if (job && job.state === "done" && job.review) {
      const hand = job.review.hands[0];
      const title = el("h3", "", whist.t("review.points_title", { n: args.number }));
      title.id = `hand-review-title-${args.number}`;
      parts.push(title, ...whistReview.pointsTable(hand, { name: args.seatName, viewer: job.review.seat,
        places: whistReview.digitsOf(job.review), title: title.id }));
      if (args.over) {
        const link = el("a", "", whist.t("review.in_replay"));
        const suffix = args.invite ? `?invite=${encodeURIComponent(args.invite)}` : "";
        link.href = `/replay/${encodeURIComponent(args.tableId)}${suffix}#hand=${args.number}&step=0&review`;
        parts.push(el("p", "", [link]));
      }
    } else if (busy(entry)) {
      const bar = el("progress", "", "");
      const text = whist.t(job.state === "queued" ? "review.queued" : "review.hand_progress");
      bar.setAttribute("aria-label", text);
      parts.push(el("p", "rv-progress", [el("span", "", text), bar]));
    } else {
      const start = el("button", "small", whist.t("summary.review"));
      start.type = "button";
      start.dataset.testid = "hand-review-start";
      start.addEventListener("click", () => ask(entry, "POST"));
      parts.push(start);
    }
    entry.node.replaceChildren(...parts);
    entry.node.dataset.testid = "hand-review";
  }

  return { box };
})();
