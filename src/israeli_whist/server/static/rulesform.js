// The rule options of a game as a form, made from GET /api/rules (the rules' own metadata), so the
// lobby and the score sheet offer every option and a new option needs no page work. Also the words
// of an option and its value, for the table's house rules and the sheet's rules line.
"use strict";

whist.rules = (() => {
  let loaded = null;

  // Every game's options and presets, fetched once per page.
  function load() {
    if (!loaded) loaded = whist.api("/api/rules").then((data) => Object.fromEntries(data.games.map((g) => [g.name, g])));
    return loaded;
  }

  const words = whist.words;

  // An option's words: the game's own where two games share an option's name but not its meaning
  // (option.classic.target.help), else the option's (option.target.help), else the rules' English.
  const gameWords = (game, key, fallback) => words(`option.${game}.${key}`, words(`option.${key}`, fallback));
  const optionLabel = (name, game = "") => gameWords(game, name, name.replaceAll("_", " "));
  const optionHelp = (spec, game) => gameWords(game, `${spec.name}.help`, spec.help);

  function valueText(name, value) {
    if (value === true) return whist.t("rules.yes");
    if (value === false) return whist.t("rules.no");
    if (value === null || value === undefined) return whist.t("rules.none");
    return words(`option.${name}.${value}`, String(value));
  }

  // ["Lowest no-trump bid: 5", "Frisch rounds: 0"]: options and their values, in the page's language.
  function changedText(changed, game) {
    return Object.entries(changed).map(([name, value]) => `${optionLabel(name, game)}: ${valueText(name, value)}`);
  }

  const SMALL_RANGE = 12;  // up to this many numbers are a list to pick from, more a number to type
  const CUSTOM = "\u0000custom";  // the "other" entry of a text option's suggestions: no real value

  function control(spec) {
    const id = `opt-${spec.name}`;
    const common = { id, dataset: { testid: id, option: spec.name } };
    if (spec.kind === "bool") return whist.element("input", { ...common, type: "checkbox" });
    if (spec.kind === "choice") {
      return whist.element("select", common, spec.choices.map((choice) =>
        whist.element("option", { value: choice, text: valueText(spec.name, choice) })));
    }
    if (spec.kind === "number" && !spec.optional && spec.high - spec.low < SMALL_RANGE) {
      const numbers = [];
      for (let n = spec.low; n <= spec.high; n += 1) numbers.push(whist.element("option", { value: String(n), text: String(n) }));
      return whist.element("select", common, numbers);
    }
    if (spec.kind === "number") {
      return whist.element("input", { ...common, type: "number", inputMode: "numeric", min: String(spec.low),
        max: String(spec.high), step: "1", placeholder: spec.optional ? "—" : "" });
    }
    // Free text with usual values: pick one, or "other" and type it.
    const select = whist.element("select", { ...common, id: `${id}-pick`, dataset: { testid: `${id}-pick` } },
      [...spec.suggestions.map((value) => whist.element("option", { value, text: valueText(spec.name, value) })),
       whist.element("option", { value: CUSTOM, text: whist.t("rules.other") })]);
    const text = whist.element("input", { id, type: "text", dataset: { testid: id }, hidden: true, dir: "ltr",
      maxLength: 100, placeholder: spec.default });
    select.addEventListener("change", () => { text.hidden = select.value !== CUSTOM; });
    return whist.element("span", { className: "rules-text", dataset: { option: spec.name } }, [select, text]);
  }

  function setValue(spec, node, value) {
    if (spec.kind === "bool") node.checked = Boolean(value);
    else if (spec.kind === "text") {
      const [select, text] = node.children;
      const known = spec.suggestions.includes(value);
      select.value = known ? value : CUSTOM;
      text.value = known ? "" : value;
      text.hidden = known;
    } else node.value = value === null || value === undefined ? "" : String(value);
  }

  function readValue(spec, node) {
    if (spec.kind === "bool") return node.checked;
    if (spec.kind === "text") {
      const [select, text] = node.children;
      return select.value === CUSTOM ? text.value.trim() : select.value;
    }
    if (spec.kind === "number") {
      const text = node.value.trim();
      return text === "" ? (spec.optional ? null : spec.default) : Number(text);
    }
    return node.value;
  }

  function field(spec, node, game) {
    const label = whist.element("label", { htmlFor: spec.kind === "text" ? `opt-${spec.name}-pick` : node.id,
      text: optionLabel(spec.name, game) });
    const help = whist.element("small", { className: "rules-help muted", text: optionHelp(spec, game) });
    const kind = spec.kind === "bool" ? "rules-field rules-check" : "rules-field";
    const parts = spec.kind === "bool" ? [node, label, help] : [label, node, help];
    return whist.element("div", { className: kind, dataset: { field: spec.name } }, parts);
  }

  // The form of one game: `common` holds the options most tables set, `advanced` a fold with the
  // others. `onChange` is called on every change (the seats may change with the options).
  function form(game, onChange = () => {}) {
    const nodes = new Map(game.options.map((spec) => [spec.name, control(spec)]));
    const fields = game.options.map((spec) => field(spec, nodes.get(spec.name), game.name));
    for (const node of nodes.values()) node.addEventListener("change", onChange);
    const common = whist.element("div", { className: "rules-common", dataset: { testid: "rules-common" } },
      fields.filter((_, i) => game.options[i].common));
    const advanced = whist.element("details", { className: "rules-advanced", dataset: { testid: "rules-advanced" } }, [
      whist.element("summary", { text: whist.t("rules.advanced") }),
      whist.element("div", { className: "rules-fields" }, fields.filter((_, i) => !game.options[i].common)),
    ]);

    const presetOptions = (name) => (game.presets.find((p) => p.name === (name || "standard")) || { options: {} }).options;

    // The preset's values in every field; the defaults where the preset says nothing.
    function applyPreset(name) {
      const chosen = presetOptions(name);
      for (const spec of game.options) setValue(spec, nodes.get(spec.name), spec.name in chosen ? chosen[spec.name] : spec.default);
    }

    // Every field from `chosen` (a language change redraws the form and keeps what was chosen).
    function fill(chosen) {
      for (const spec of game.options) if (spec.name in chosen) setValue(spec, nodes.get(spec.name), chosen[spec.name]);
    }

    function values() {
      return Object.fromEntries(game.options.map((spec) => [spec.name, readValue(spec, nodes.get(spec.name))]));
    }

    // What to send with `preset`: the fields that differ from the preset's values.
    function options(preset) {
      const base = presetOptions(preset);
      const result = {};
      for (const [name, value] of Object.entries(values())) {
        const spec = game.options.find((s) => s.name === name);
        if (value !== (name in base ? base[name] : spec.default)) result[name] = value;
      }
      return result;
    }

    // Seats at the table with these values, as the endpoint says each option sets them.
    function seats() {
      const current = values();
      let count = game.players;
      for (const spec of game.options) {
        if (spec.seats === "value") count = Number(current[spec.name]) || count;
        else if (spec.seats) count = spec.seats[current[spec.name]] ?? count;
      }
      return count;
    }

    applyPreset(null);
    return { common, advanced, applyPreset, fill, values, options, seats };
  }

  return { load, form, optionLabel, valueText, changedText };
})();
