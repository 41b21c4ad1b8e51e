// Deliberate play: where the setting is on (by default on a touch screen, where a mis-tap is easy),
// a first tap on a card picks it and a second tap on the same card plays it. The choice is
// remembered by the browser; a pick lasts for the turn it was made in.
"use strict";

whist.deliberate = (() => {
  const KEY = "whist.confirmPlay";
  const TOUCH = window.matchMedia("(pointer: coarse)").matches;
  let picked = null;
  let pickedTurn = "";

  function on() {
    try {
      const stored = localStorage.getItem(KEY);
      return stored === null ? TOUCH : stored === "1";
    } catch {
      return TOUCH;  // storage blocked: the default for this screen
    }
  }

  function set(value) {
    try {
      localStorage.setItem(KEY, value ? "1" : "0");
    } catch {
      // storage blocked: the choice holds until the page is left
    }
  }

  // A tap on `card` in the turn `turn`: true if it is to be played now, false if it was only picked.
  function tap(card, turn) {
    if (!on() || (picked === card && pickedTurn === turn)) {
      picked = null;
      return true;
    }
    picked = card;
    pickedTurn = turn;
    return false;
  }

  // The card picked in this turn, or null.
  function pickedIn(turn) {
    return pickedTurn === turn ? picked : null;
  }

  return { on, set, tap, pickedIn };
})();
