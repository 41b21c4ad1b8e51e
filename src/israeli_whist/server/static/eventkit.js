// Shared by the pages of duplicate events (events, event, board): an event's facts in the page's
// words, its boards with their Play buttons, standings, the invite link, and a guest's name to
// play with. The events API is in docs/server-protocol.md ("Events"); the rules of duplicate
// scoring in docs/rules-notes.md ("Duplicate events").
"use strict";

whist.events = (() => {
  const element = whist.element;
  const { number } = finished;

  const eventPath = (id, invite) => `/event/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
  const boardPath = (id, n, invite) =>
    `/event/${encodeURIComponent(id)}/board/${n}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;

  // The event's name: the daily event is named by the server in English ("Daily 2026-12-05"), so
  // the page names it in its own language, with the day written as the language writes dates.
  function name(summary) {
    if (summary.kind !== "daily") return summary.name;
    const day = new Date(summary.starts_at).toLocaleDateString(whist.language() === "he" ? "he-IL" : "en-GB",
      { dateStyle: "medium", timeZone: "UTC" });
    return whist.t("events.daily_name", { day });
  }

  // "Israeli Whist (Classic rules)": the game and its preset, as the history writes a game.
  const gameText = (summary) => finished.gameTitle({ game: summary.game, preset: summary.preset });

  // "closes in 5 hours" / «נסגר בעוד 5 שעות», in the unit that reads best, from the browser's Intl.
  function closesText(summary, now = Date.now()) {
    const left = (new Date(summary.ends_at).getTime() - now) / 1000;
    if (!summary.open || left <= 0) return whist.t("events.closed");
    const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
    const [unit, size] = units.find(([, seconds]) => left >= seconds * 1.5) || ["minute", 60];
    const when = new Intl.RelativeTimeFormat(whist.language(), { numeric: "auto" }).format(Math.round(left / size), unit);
    return whist.t("events.closes", { when });
  }

  // The facts of an event on one line: game, boards, bots, players, how long it stays open.
  function facts(summary) {
    return [
      gameText(summary),
      whist.t("events.boards", { n: summary.boards }),
      whist.t("events.bots", { level: whist.t(`level.${summary.bot_level}`) }),
      whist.t("events.players", { n: summary.players }),
      closesText(summary),
    ];
  }

  function factLine(summary) {
    return element("p", { className: "event-facts muted" },
      facts(summary).flatMap((fact, i) => [i ? " · " : null, element("span", { text: fact })]));
  }

  // A number kept left to right in a Hebrew line ("−12", "+3.5"): isolated.
  const ltr = (text, className = "") => element("bdi", { dir: "ltr", className, text });
  const percentText = (value) => finished.percent(value);
  const aboveText = (value) => (value === null || value === undefined ? "—"
    : `${value > 0 ? "+" : value < 0 ? "−" : ""}${number(Math.abs(value), 1)}`);
  const pointsText = (value) => (value === null || value === undefined ? "—" : finished.signed(value));

  // Plays board `n`: the server gives the board's table (the same one again while it is being
  // played), and the page goes there. Refusals (played, closed, private) come back as errors.
  // With `friends`, the table has seats for them, and its link carries the invite they join with
  // (the table page shows it to copy).
  async function play(eventId, n, invite, friends = 0) {
    const seat = await whist.api(`/api/events/${encodeURIComponent(eventId)}/boards/${n}/play`,
      { method: "POST", body: { invite: invite || null, friends } });
    const query = seat.invite ? `?invite=${encodeURIComponent(seat.invite)}` : "";
    location.assign(`/table/${encodeURIComponent(seat.table)}${query}`);
  }

  // A Play (or Continue) button for a board; `onError` gets the refusal's words, `friendsOf()` the
  // number of friends to play it with (0: the event's bots only).
  function playButton(eventId, board, invite, onError, friendsOf = () => 0) {
    const playing = board.status === "playing";
    const button = element("button", { type: "button", className: "primary small",
      text: whist.t(playing ? "event.continue" : "event.play"), dataset: { testid: `play-${board.number}` } });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await play(eventId, board.number, invite, friendsOf());
      } catch (error) {
        button.disabled = false;
        onError(error);
      }
    });
    return button;
  }

  // The boards of an event, one row each: its number, who deals, and what the player has done with
  // it: Play, Continue, or the points, the percentage and a link to the results against the field.
  function boardList(detail, invite, onError, friendsOf = () => 0) {
    const { event } = detail;
    return element("ol", { className: "event-boards", dataset: { testid: "event-boards" } }, detail.boards.map((board) => {
      const head = [
        element("strong", { text: whist.t("event.board", { n: board.number }) }),
        element("span", { className: "muted", text: board.dealer === board.seat
          ? whist.t("event.you_deal") : whist.t("event.dealer", { n: board.dealer + 1 }) }),
      ];
      let result;
      if (board.status === "played") {
        result = [
          element("span", { className: "board-score" }, [
            ltr(pointsText(board.points), board.points < 0 ? "negative" : ""), " ",
            element("span", { className: "muted", text: whist.t("event.points") })]),
          element("span", { className: "board-percent", dataset: { testid: `percent-${board.number}` } }, [ltr(percentText(board.percent))]),
          element("a", { className: "button small", href: boardPath(event.id, board.number, invite),
            text: whist.t("event.results"), dataset: { testid: `results-${board.number}` } }),
        ];
      } else if (event.open) {
        result = [
          board.status === "playing" ? element("span", { className: "muted", text: whist.t("event.playing") }) : null,
          playButton(event.id, board, invite, onError, friendsOf),
        ];
      } else {
        result = [element("span", { className: "muted", text: whist.t("event.not_played") })];
      }
      return element("li", { className: `event-board ${board.status}`, dataset: { board: String(board.number), status: board.status } },
        [element("div", { className: "board-head" }, head), element("div", { className: "board-result" }, result)]);
    }));
  }

  // Standings: place, name, boards played, mean percentage, points above the field; the player's own
  // row marked, and in the ranking a provisional one said so. On a phone each row is a card (events.css), its cells named by data-label.
  function standingsTable(rows, me, testid) {
    const columns = [["place", "events.place"], ["name", "events.player"], ["boards", "events.boards_played"],
      ["percent", "events.percent"], ["above_average", "events.above"]];
    const text = (row, key) => (key === "percent" ? [ltr(percentText(row.percent))]
      : key === "above_average" ? [ltr(aboveText(row.above_average))]
        : key === "name" ? [element("bdi", { text: row.name }), ...(row.provisional
          ? [" ", element("span", { className: "provisional-tag", text: `(${whist.t("events.provisional")})` })] : [])]
          : [ltr(number(row[key]))]);
    return element("table", { className: "ranking", dataset: { testid } }, [
      element("thead", {}, [element("tr", {}, columns.map(([, label]) => element("th", { scope: "col", text: whist.t(label) })))]),
      element("tbody", {}, rows.map((row) => element("tr", { className: [me && row.user === me.id ? "mine" : "",
        row.provisional ? "provisional" : ""].filter(Boolean).join(" ") },
        columns.map(([key, label]) => element("td", { className: key, dataset: { label: whist.t(label) } }, text(row, key)))))),
    ]);
  }

  // The invite link of a private event, to copy: shown to its creator.
  function invitePanel(summary) {
    const link = `${location.origin}${eventPath(summary.id, summary.invite)}`;
    const input = element("input", { id: `invite-${summary.id}`, readOnly: true, dir: "ltr", value: link,
      dataset: { testid: "event-invite-link" } });
    const copy = element("button", { type: "button", className: "small", text: whist.t("invite.copy") });
    copy.addEventListener("click", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = whist.t("invite.copied");
      } catch {
        document.execCommand("copy");
      }
    });
    return element("div", { className: "event-invite", dataset: { testid: "event-invite" } }, [
      element("label", { htmlFor: input.id, text: whist.t(summary.public ? "event.share" : "event.invite") }), input, copy]);
  }

  // Who the page is for: the signed-in player, or null. Without one, the `form` (a guest's name)
  // signs in and calls `then`: playing a board needs a player, as a table does.
  async function whoAmI() {
    try {
      return (await whist.api("/api/me")).user;
    } catch {
      return null;
    }
  }

  function wireGuestForm(form, input, errorBox, then) {
    form.addEventListener("submit", async (submitted) => {
      submitted.preventDefault();
      errorBox.textContent = "";
      try {
        then((await whist.api("/api/guest", { method: "POST", body: { name: input.value } })).user);
      } catch (error) {
        errorBox.textContent = error.message;
      }
    });
  }

  // The events' pages show fields that grow while an event is open: each asks again every
  // REFRESH_MS while it is in sight (`onTimer`), and at once when it comes back into sight
  // (`onSight`), but not while the player is choosing or typing in it, which drawing it anew would undo.
  const REFRESH_MS = 30000;
  function keepFresh(onTimer, onSight = onTimer) {
    const when = (load) => () => {
      if (document.visibilityState === "visible" && !document.activeElement?.matches("input, select, textarea")) load();
    };
    setInterval(when(onTimer), REFRESH_MS);
    document.addEventListener("visibilitychange", when(onSight));
  }

  // A refusal in the page's error line; one for want of a player (401: nobody signed in) also takes
  // the player to the name that signs them in as a guest, where the page has it.
  function showError(error) {
    document.getElementById("error").textContent = error.message;
    const name = document.getElementById("guest-name");
    if (error.status === 401 && name && !name.closest("[hidden]")) name.focus();
  }

  return { showError, eventPath, boardPath, name, gameText, closesText, facts, factLine, ltr, percentText, aboveText, pointsText, play,
    playButton, boardList, standingsTable, invitePanel, whoAmI, wireGuestForm, keepFresh };
})();
