// Turn alerts: when it becomes this player's turn, a short chime and a buzz on a phone (unless the
// player turned the sound off, which is remembered), and a notification when the page is hidden
// (another tab, another app); the sound and the buzz only once the player has clicked or typed on
// the page, as browsers require. The table calls tableAlerts.turn(mine) with every state it gets;
// only a change to "mine" alerts, so a Frisch's second card or a bot's move never does, and a
// watcher's or a bot's turn is never "mine". Notifications are asked for on the player's first
// click or key on the page, never on load (browsers ignore or penalise an unasked request).
"use strict";

const tableAlerts = (() => {
  const STORE = "whist-sound";  // "off" once the player muted; anything else: on
  const NOTES = [660, 880];  // Hz: a rising fifth, short, that says "you" without startling
  const NOTE_SECONDS = 0.12;
  const VIBRATION_MS = [80, 60, 80];
  let wasMine = false;
  let audio = null;

  function soundOn() {
    return localStorage.getItem(STORE) !== "off";
  }

  // Browsers start sound only after a gesture on the page: the first one readies it, and asks
  // whether notifications may be shown.
  function onGesture() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume().catch(() => {});
    if ("Notification" in window && Notification.permission === "default") {
      Promise.resolve(Notification.requestPermission()).catch(() => {});
    }
    document.removeEventListener("pointerdown", onGesture, true);
    document.removeEventListener("keydown", onGesture, true);
  }
  document.addEventListener("pointerdown", onGesture, true);
  document.addEventListener("keydown", onGesture, true);

  function chime() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (!audio) return;
    const start = audio.currentTime;
    NOTES.forEach((frequency, i) => {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      const at = start + i * NOTE_SECONDS;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_SECONDS);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + NOTE_SECONDS);
    });
  }

  // Through the service worker where there is one: a phone's browser shows no other kind.
  async function notify() {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    const options = { body: whist.t("alerts.body"), tag: "whist-turn", icon: "/static/icons/icon-192.png",
      data: { url: window.location.href } };
    const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
    if (registration) await registration.showNotification(whist.t("alerts.title"), options);
    else new Notification(whist.t("alerts.title"), options);
  }

  // Before the player's first click or key on this page the browser blocks sound and vibration
  // (and says so in the console): neither is tried.
  function activated() {
    return !navigator.userActivation || navigator.userActivation.hasBeenActive;
  }

  function alert() {
    if (soundOn() && activated()) {
      chime();
      if (navigator.vibrate) navigator.vibrate(VIBRATION_MS);
    }
    if (document.hidden) notify().catch((error) => console.error("No notification:", error));
  }

  // The table's one call, with each state: whether it is now this player's turn.
  function turn(mine) {
    if (mine && !wasMine) alert();
    wasMine = mine;
  }

  // The sound's switch, for the table to place: pressed while the sound is on.
  function toggle() {
    const button = whist.element("button", { type: "button", className: "small alerts-toggle",
      dataset: { testid: "sound-toggle", t: "alerts.sound" } }, [whist.t("alerts.sound")]);
    const mark = () => button.setAttribute("aria-pressed", String(soundOn()));
    button.addEventListener("click", () => {
      localStorage.setItem(STORE, soundOn() ? "off" : "on");
      mark();
    });
    mark();
    return button;
  }

  return { turn, toggle };
})();
