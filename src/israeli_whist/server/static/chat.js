// Talk at the table (server/chat.py): the chat beside the table on a wide screen, one tap away on a
// phone (a button in the status bar with the count of messages not read yet), a row of quick
// reactions, the creator's choice of who may talk, and muting: the messages of someone muted are
// hidden on this browser only (remembered in localStorage), and no one is told.
// table.js calls whistChat.start(send) once, whistChat.connected() when its socket opens,
// whistChat.update(state, me) with every state, and hands it the messages whistChat.owns. The replay
// page calls whistChat.replayed(box, messages) with the messages said up to the place it shows.
// Every text a person wrote is put in the page as text (textContent), never as markup.
"use strict";

const whistChat = (() => {
  const MUTED = "whist-muted";  // the user ids this browser does not want to read, as JSON
  const WORDS = ["well_played", "sorry", "one_more"];  // reactions said in the reader's language
  const EMOJI = ["👍", "👏", "😂", "😮", "🙈", "🎉"];  // server/chat.py REACTIONS: the same list
  const MAX_CHAT = 200;
  const KEPT = 200;  // lines kept on the page: the server keeps them all, with the game
  const SIDE_BY_SIDE = window.matchMedia("(min-width: 1000px)");  // as table.css: the chat beside the table
  const element = whist.element;
  let send = null;  // sends a message on the table's socket; false when it is down
  let messages = [];
  let unread = 0;
  let open = false;  // on a phone: the chat shown over the table
  let sent = 0;
  let state = null;
  let me = null;

  const $ = (id) => document.getElementById(id);

  function mutedIds() {
    try {
      const ids = JSON.parse(localStorage.getItem(MUTED) || "[]");
      return new Set(Array.isArray(ids) ? ids.filter(Number.isInteger) : []);
    } catch {
      return new Set();
    }
  }

  function setMuted(userId, muted) {
    const ids = mutedIds();
    if (muted) ids.add(userId);
    else ids.delete(userId);
    localStorage.setItem(MUTED, JSON.stringify([...ids]));
    render();
  }

  // A reaction's words in the page's language, or its emoji.
  const reactionText = (reaction) => (WORDS.includes(reaction) ? whist.t(`react.${reaction}`) : reaction);

  // One message, as a line of the log: the name (isolated, so that a Hebrew name in an English page
  // keeps its place), "watching" for a spectator, the text, and a mute button for someone else's.
  function line(message, withMute) {
    const name = element("bdi", { className: "chat-name", text: message.name });
    const parts = [name];
    if (message.spectator) parts.push(" ", element("span", { className: "chat-tag", text: whist.t("chat.spectator") }));
    const said = message.reaction !== undefined
      ? element("span", { className: "chat-text chat-reaction", text: reactionText(message.reaction) })
      : element("span", { className: "chat-text", dir: "auto", text: message.text });
    parts.push(": ", said);
    if (withMute && !(me && me.id === message.user_id)) {
      const label = whist.t("chat.mute", { name: message.name });
      const mute = element("button", { type: "button", className: "chat-mute", title: label,
        "aria-label": label, dataset: { testid: "chat-mute" } });  // drawn by chat.css: the sound switch's icon
      mute.addEventListener("click", () => setMuted(message.user_id, true));
      parts.push(mute);
    }
    return element("li", { className: message.spectator ? "chat-line spectator" : "chat-line",
      dataset: { testid: "chat-line", user: String(message.user_id) } }, parts);
  }

  function build() {
    const box = $("chat");
    const reactions = [...WORDS, ...EMOJI].map((reaction) => {
      const button = element("button", { type: "button", className: "small chat-react",
        dataset: { testid: `react-${reaction}`, reaction } }, [reactionText(reaction)]);
      button.addEventListener("click", () => say({ type: "react", reaction }));
      return button;
    });
    const input = element("input", { id: "chat-input", maxLength: MAX_CHAT, dir: "auto", autocomplete: "off",
      dataset: { testid: "chat-input" } });
    const form = element("form", { className: "chat-form", dataset: { testid: "chat-form" } }, [
      element("label", { className: "visually-hidden", htmlFor: "chat-input", id: "chat-input-label" }),
      input,
      element("button", { type: "submit", className: "primary", id: "chat-send", dataset: { testid: "chat-send" } }),
    ]);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text && say({ type: "chat", text })) input.value = "";
    });
    const mode = element("select", { id: "chat-mode", dataset: { testid: "chat-mode" } },
      ["everyone", "seated", "off"].map((value) => element("option", { value })));
    mode.addEventListener("change", () => say({ type: "chat_mode", mode: mode.value }));
    const close = element("button", { type: "button", className: "small chat-close", id: "chat-close",
      dataset: { testid: "chat-close" } });
    close.addEventListener("click", () => setOpen(false));
    box.replaceChildren(
      element("div", { className: "chat-head" }, [element("h2", { id: "chat-title" }), close]),
      element("p", { className: "chat-muted muted", id: "chat-muted", dataset: { testid: "chat-muted" } }),
      element("ol", { className: "chat-log", id: "chat-log", dataset: { testid: "chat-log" }, "aria-live": "polite",
        "aria-labelledby": "chat-title" }),
      element("p", { className: "chat-note muted", id: "chat-note", dataset: { testid: "chat-note" } }),
      element("p", { className: "error chat-error", id: "chat-error", role: "alert", dataset: { testid: "chat-error" } }),
      element("div", { className: "chat-reactions", id: "chat-reactions", role: "group" }, reactions),
      form,
      element("label", { className: "chat-mode", id: "chat-mode-label", hidden: true }, [
        element("span", { id: "chat-mode-words" }), " ", mode]),
    );
    const toggle = element("button", { type: "button", className: "small chat-toggle", id: "chat-toggle",
      dataset: { testid: "chat-toggle" }, "aria-controls": "chat" }, [
      element("span", { id: "chat-toggle-words" }), element("span", { className: "chat-unread", id: "chat-unread" })]);
    toggle.addEventListener("click", () => setOpen(!open));
    document.querySelector(".status-bar").append(toggle);
  }

  function setOpen(value) {
    open = value;
    if (open) unread = 0;
    render();
    if (open && !SIDE_BY_SIDE.matches) $("chat-input").focus();
  }

  // Sends a talk message; false when the socket is down (the text stays in the box to send again).
  function say(message) {
    sent += 1;
    return Boolean(send && send({ ...message, id: `chat-${sent}` }));
  }

  function owns(message) {
    if (message.type === "chat" || message.type === "chat_log") return true;
    return (message.type === "error" || message.type === "ack") && String(message.id || "").startsWith("chat-");
  }

  function receive(message) {
    if (message.type === "chat_log") {
      messages = message.messages;
    } else if (message.type === "chat") {
      messages = [...messages.filter((m) => m.id !== message.message.id), message.message].slice(-KEPT);
      const said = message.message;
      const mine = me && me.id === said.user_id;
      if (!mine && !mutedIds().has(said.user_id) && !(open || SIDE_BY_SIDE.matches)) unread += 1;
    } else if (message.type === "error") {
      $("chat-error").textContent = whist.errorText(message.code, message.message);
      return;
    } else {
      $("chat-error").textContent = "";
      return;
    }
    render();
  }

  // Why this visitor cannot talk here, or "" if they can.
  function noteKey() {
    const mode = state ? state.table.chat : "everyone";
    if (mode === "off") return "chat.is_off";
    if (!me) return "chat.sign_in";
    if (mode === "seated" && state && state.you < 0) return "chat.is_seated";
    return "";
  }

  function render() {
    const box = $("chat");
    if (!box || !state) return;
    // An event's board played alone against bots: nobody to talk to, and nobody can turn talk on.
    const nobody = Boolean(state.table.event) && state.table.chat === "off";
    box.hidden = nobody;
    $("chat-toggle").hidden = nobody;
    if (nobody) return;
    const muted = mutedIds();
    $("chat-title").textContent = whist.t("chat.title");
    $("chat-close").textContent = whist.t("chat.close");
    $("chat-input-label").textContent = whist.t("chat.input");
    $("chat-input").placeholder = whist.t("chat.placeholder");
    $("chat-send").textContent = whist.t("chat.send");
    $("chat-reactions").setAttribute("aria-label", whist.t("chat.reactions"));
    for (const button of box.querySelectorAll(".chat-react")) button.textContent = reactionText(button.dataset.reaction);
    const shown = messages.filter((m) => !muted.has(m.user_id));
    const log = $("chat-log");
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    log.replaceChildren(...(shown.length ? shown.map((m) => line(m, true))
      : [element("li", { className: "chat-empty muted", text: whist.t("chat.empty") })]));
    if (atBottom) log.scrollTop = log.scrollHeight;
    renderMuted(muted);
    const note = noteKey();
    $("chat-note").textContent = note ? whist.t(note) : "";
    for (const control of box.querySelectorAll(".chat-form input, .chat-form button, .chat-react")) {
      control.disabled = Boolean(note);
    }
    const creator = Boolean(me && state.table.created_by === me.id);
    $("chat-mode-label").hidden = !creator;
    $("chat-mode-words").textContent = whist.t("chat.mode");
    const select = $("chat-mode");
    for (const option of select.options) option.textContent = whist.t(`chat.mode_${option.value}`);
    select.value = state.table.chat;
    box.classList.toggle("open", open);
    const toggle = $("chat-toggle");
    toggle.setAttribute("aria-expanded", String(open));
    $("chat-toggle-words").textContent = whist.t("chat.open");
    $("chat-unread").textContent = unread ? String(unread) : "";
    toggle.dataset.unread = String(unread);
    toggle.setAttribute("aria-label", unread ? whist.t("chat.open_unread", { n: unread }) : whist.t("chat.open"));
  }

  // Who this browser muted, among those who spoke here, each with a button to hear them again.
  function renderMuted(muted) {
    const names = new Map(messages.filter((m) => muted.has(m.user_id)).map((m) => [m.user_id, m.name]));
    const box = $("chat-muted");
    box.hidden = names.size === 0;
    box.replaceChildren(whist.t("chat.muted"), ...[...names].map(([userId, name]) => {
      const label = whist.t("chat.unmute", { name });
      const button = element("button", { type: "button", className: "small chat-unmute", title: label,
        "aria-label": label, dataset: { testid: "chat-unmute" } }, [element("bdi", { text: name })]);
      button.addEventListener("click", () => setMuted(userId, false));
      return button;
    }));
  }

  return {
    owns,
    receive,
    start(sender) {
      send = sender;
      build();
      document.addEventListener("whist:language", render);
      SIDE_BY_SIDE.addEventListener("change", () => { unread = 0; render(); });
    },
    // The socket opened (again): the recent messages, since the page may have missed some.
    connected() {
      say({ type: "chat_log" });
    },
    update(newState, user) {
      state = newState;
      me = user || null;
      render();
    },
    // The replay: the messages said up to the place shown, newest last, without the mute buttons.
    replayed(box, said) {
      const muted = mutedIds();
      const shown = said.filter((m) => !muted.has(m.user_id));
      box.replaceChildren(...(shown.length ? shown.map((m) => line(m, false))
        : [element("li", { className: "chat-empty muted", text: whist.t("chat.replay_none") })]));
      box.scrollTop = box.scrollHeight;
    },
  };
})();
