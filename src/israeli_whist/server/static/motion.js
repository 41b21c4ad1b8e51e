// Movement on the table, with the Web Animations API: a played card travels from its seat (or from
// your hand) to the trick, a finished trick stays a moment and goes to its winner, a new deal's
// cards arrive in the hand. The page draws every state at once and only then animates what changed:
// the cards are where they belong and clickable from the first frame, so nobody waits on a move.
// prefers-reduced-motion: nothing moves.
"use strict";

whist.motion = (() => {
  const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
  const FLIGHT_MS = 380;  // a bot's card is followed by eye, and done before the next can come
  // Flight, stay and collection end before a bot's next lead (server/live.py: two bot delays, 1.6 s).
  const TRICK_STAYS_MS = 700;  // the whole trick seen before it goes
  const COLLECT_MS = 400;
  const DEAL_MS = 300;
  const DEAL_STAGGER_MS = 25;

  let before = null;  // what was on the page before this drawing: positions and cards
  let collected = "";  // the finished trick already sent to its winner
  let first = true;  // the page's first state is shown as it is: nothing was seen arriving
  let dealt = "";  // the deal whose cards were seen arriving

  const centre = (rect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
  const rectOf = (selector) => {
    const el = document.querySelector(selector);
    return el ? el.getBoundingClientRect() : null;
  };

  // Where things are now, read before the page draws the next state.
  function snapshot() {
    const hand = new Map([...document.querySelectorAll("#hand .card[data-card]")]
      .map((el) => [el.dataset.card, el.getBoundingClientRect()]));
    const trick = new Set([...document.querySelectorAll("#trick .played .card-face[data-card]")].map((el) => el.dataset.card));
    before = { hand, trick };
  }

  // From a point (the centre of `from`) to where `el` is drawn.
  function travel(el, from) {
    const to = centre(el.getBoundingClientRect());
    const start = centre(from);
    return el.animate([
      { transform: `translate(${start.x - to.x}px, ${start.y - to.y}px) scale(.8)` },
      { transform: "none" },
    ], { duration: FLIGHT_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
  }

  // After the page drew `view`: animate the cards that came. `finishedKey` names the last trick
  // finished, `dealKey` the deal (a deal thrown in and dealt again is a new one).
  function drawn(view, finishedKey, dealKey) {
    const was = before;
    before = null;
    if (first) {
      first = false;
      collected = finishedKey;
      dealt = dealKey;
      return;
    }
    const newDeal = dealKey !== dealt;
    dealt = dealKey;
    if (!was || REDUCED.matches) return;
    const trick = document.getElementById("trick");
    const arriving = [...trick.querySelectorAll(".played[data-seat]")].filter((played) => {
      const face = played.querySelector(".card-face[data-card]");
      return face && !was.trick.has(face.dataset.card);
    });
    // The trick's going first: a card's flight, made later, shows over it while it lasts.
    if (trick.classList.contains("previous") && finishedKey !== collected) {
      collected = finishedKey;
      collect(trick, view.last_trick.winner, arriving.length ? FLIGHT_MS : 0);
    }
    for (const played of arriving) {
      const card = played.querySelector(".card-face").dataset.card;
      const from = was.hand.get(card) || rectOf(`#felt .seat[data-seat="${played.dataset.seat}"]`);
      if (from) lifted(played, travel(played, from));
    }
    if (newDeal) deal();
  }

  // Over the rest of the page (the hand's panel under the felt) while it moves.
  function lifted(el, animation) {
    el.classList.add("moving");
    animation.finished.then(() => el.classList.remove("moving"), () => el.classList.remove("moving"));
  }

  // The finished trick, whole for a moment (the last card landing first), then to its winner; it
  // comes back faded in place, for reference, until the next lead.
  function collect(trick, winner, landing) {
    const seat = rectOf(`#felt .seat[data-seat="${winner}"]`);
    if (!seat) return;
    const to = centre(seat);
    const total = landing + TRICK_STAYS_MS + COLLECT_MS;
    for (const played of trick.querySelectorAll(".played")) {
      const at = centre(played.getBoundingClientRect());
      lifted(played, played.animate([
        { transform: "none", opacity: 1 },
        { transform: "none", opacity: 1, offset: (landing + TRICK_STAYS_MS) / total },
        { transform: `translate(${to.x - at.x}px, ${to.y - at.y}px) scale(.4)`, opacity: 0 },
      ], { duration: total, easing: "ease-in", fill: "forwards" }));
      // Whole, not yet faded as a past trick (table.css), while it stays and goes.
      const face = played.querySelector(".card-face");
      if (face) face.animate([{ opacity: 1 }, { opacity: 1 }], { duration: total });
      // Then it comes back in place, where table.css fades its card (not the name under it); both
      // moves are dropped at the end, leaving the page's own style.
      played.animate([{ transform: "none", opacity: 0 }, { transform: "none", opacity: 1 }],
        { duration: 300, delay: total, fill: "forwards" }).finished
        .then(() => played.getAnimations().forEach((animation) => animation.cancel()), () => {});
    }
  }

  // A new deal: the cards arrive one after another.
  function deal() {
    const cards = [...document.querySelectorAll("#hand .card[data-card]")];
    cards.forEach((el, i) => el.animate([
      { transform: "translateY(-60px) scale(.7)", opacity: 0 },
      { transform: "none", opacity: 1 },
    ], { duration: DEAL_MS, delay: i * DEAL_STAGGER_MS, easing: "ease-out", fill: "backwards" }));
  }

  return { snapshot, drawn };
})();
