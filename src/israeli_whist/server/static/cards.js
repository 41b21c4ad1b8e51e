// Cards drawn by the page itself: a face with a large corner index (readable at phone size) and a
// big pip, the suit drawn as a shape (not a font's glyph, which may be missing or tiny), and backs
// for the cards other seats hold. Drawn here as SVG, no image files: nothing to license or fetch.
// The four-colour deck (clubs green, diamonds blue) is a setting the browser remembers.
"use strict";

whist.cards = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
  // Each suit in a 100x100 box. The shapes differ as much as the colours do: a colour-blind player
  // tells a heart from a diamond by its outline.
  const SUIT_SHAPES = [
    [["circle", { cx: 50, cy: 27, r: 22 }], ["circle", { cx: 26, cy: 60, r: 22 }], ["circle", { cx: 74, cy: 60, r: 22 }],
      ["path", { d: "M44 50 L36 98 L64 98 L56 50 Z" }]],
    [["path", { d: "M50 0 L90 50 L50 100 L10 50 Z" }]],
    [["path", { d: "M50 94 C22 70 2 52 2 30 C2 14 14 4 28 4 C39 4 46 11 50 20 C54 11 61 4 72 4 C86 4 98 14 98 30 C98 52 78 70 50 94 Z" }]],
    [["path", { d: "M50 2 C78 28 98 44 98 62 C98 77 87 86 74 86 C65 86 58 81 54 74 L62 98 L38 98 L46 74 C42 81 35 86 26 86 C13 86 2 77 2 62 C2 44 22 28 50 2 Z" }]],
  ];
  const FOUR_COLOUR_KEY = "whist.fourColour";

  function svg(tag, attributes = {}, children = []) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    node.append(...children);
    return node;
  }

  // A suit's shape, sized by the CSS of its class; decorative (the card's text says the suit).
  function pip(suit, className) {
    return svg("svg", { class: `pip ${className}`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
      SUIT_SHAPES[suit].map(([tag, attributes]) => svg(tag, attributes)));
  }

  // A card's face: the rank and suit in the top corner, the suit large in the middle. `mini` is a
  // one-line card for lists of cards (the Frisch note, the face-up card in the info line).
  function face(card, extra = "") {
    const suit = whist.suitOf(card);
    const rank = whist.RANKS[card % 13];
    const node = whist.element("span", { className: `card-face suit-${SUIT_NAMES[suit]} ${whist.isRed(card) ? "red" : "black"} ${extra}`,
      dir: "ltr", dataset: { card: String(card) } });
    // The text a reader or a copy reads: "10♥" (the shapes are hidden from them).
    node.append(whist.element("span", { className: "corner" }, [
      whist.element("span", { className: "rank", text: rank }),
      whist.element("span", { className: "suit visually-hidden", text: whist.SUITS[suit] }),
      pip(suit, "corner-pip")]));
    if (!extra.split(" ").includes("mini")) node.append(pip(suit, "centre-pip"));
    return node;
  }

  // The cards a seat holds, face down: a small fan of backs and their number.
  function backs(count) {
    const fan = whist.element("span", { className: "backs", dataset: { count: String(count) },
      title: whist.t("cards.held", { n: count }) });
    const shown = Math.min(count, 13);
    for (let i = 0; i < shown; i += 1) fan.append(whist.element("span", { className: "card-back", "aria-hidden": "true" }));
    fan.append(whist.element("span", { className: "backs-count", text: String(count) }),
      whist.element("span", { className: "visually-hidden", text: ` ${whist.t("cards.held", { n: count })}` }));
    return fan;
  }

  function fourColour() {
    try {
      return localStorage.getItem(FOUR_COLOUR_KEY) === "1";
    } catch {
      return false;  // storage blocked: the usual two colours
    }
  }

  // The deck's colours for the whole page (a class on <html>, read by cards.css).
  function setFourColour(on) {
    try {
      localStorage.setItem(FOUR_COLOUR_KEY, on ? "1" : "0");
    } catch {
      // storage blocked: the choice holds for this page only
    }
    document.documentElement.classList.toggle("four-colour", on);
  }

  document.documentElement.classList.toggle("four-colour", fourColour());
  return { face, backs, fourColour, setFourColour };
})();
