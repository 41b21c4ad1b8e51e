// The end of an event's board on the table page: instead of "Play again" (a board is played once),
// the way on: the board's results against the field, and the event's page for the next board.
// gameover.js draws this where state.table.event is set (the table of an event's board).
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

  return { box };
})();
