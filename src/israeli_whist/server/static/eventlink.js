// An event's board on the table page: the info line names the board (a link to its event), and at
// its end, instead of "Play again" (a board is played once), the way on: the board's results
// against the field, and the event's page for the next board. table.js and gameover.js call these
// where state.table.event is set (the table of an event's board).
"use strict";

whist.eventlink = (() => {
  const element = whist.element;

  // `event`: the table's {id, board, name}.
  function box(event) {
    const id = encodeURIComponent(event.id);
    return element("section", { className: "event-next", ariaLabel: whist.t("eventlink.title"), dataset: { testid: "event-next" } }, [
      element("h3", { text: whist.t("eventlink.title") }),
      element("p", { className: "muted", text: whist.t("eventlink.about", { n: event.board }) }),
      element("div", { className: "rematch-buttons" }, [
        element("a", { className: "button primary", href: `/event/${id}/board/${event.board}`, dataset: { testid: "event-results" },
          text: whist.t("eventlink.results") }),
        element("a", { className: "button", href: `/event/${id}`, dataset: { testid: "event-next-board" }, text: whist.t("eventlink.next") }),
      ]),
    ]);
  }

  // The table's "Hand 1 of 1" for an event's board: "Event board 2", a link to the event's page.
  function info(item, event) {
    item.replaceChildren(element("a", { href: `/event/${encodeURIComponent(event.id)}`, dataset: { testid: "event-board-link" },
      text: whist.t("eventlink.board", { n: event.board }) }));
  }

  return { box, info };
})();
