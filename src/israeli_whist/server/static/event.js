// An event's page: its boards (Play, Continue, or the player's score and a link to the board's
// results against the field), its standings, and for its creator the link to share. A private
// event opens with its invite (?invite=...), which the page passes on to every request.
"use strict";

whist.ready.then(() => {
  const { $ } = finished;
  const kit = whist.events;
  const eventId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const invite = new URLSearchParams(location.search).get("invite");
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";

  let me = null;
  let detail = null;

  const { showError } = kit;

  async function load() {
    $("error").textContent = "";
    try {
      detail = await whist.api(`/api/events/${encodeURIComponent(eventId)}${query}`);
    } catch (error) {
      showError(error);  // a refresh that fails keeps what was shown
    }
    render();
  }

  function render() {
    $("guest").hidden = Boolean(me) || !detail || !detail.event.open;
    $("boards-panel").hidden = !detail;
    $("standings-panel").hidden = !detail;
    if (!detail) return;
    const { event } = detail;
    $("event-name").replaceChildren(whist.element("bdi", { text: kit.name(event) }));  // a name in any script keeps its order
    document.title = `${whist.t("site.name")}: ${kit.name(event)}`;
    $("event-facts").replaceChildren(kit.factLine(event));
    $("invite").replaceChildren(...(event.invite ? [kit.invitePanel(event)] : []));
    fillFriends(event);
    $("boards").replaceChildren(kit.boardList(detail, invite, showError, () => Number($("friends").value)));
    $("no-standings").hidden = detail.standings.length > 0;
    $("standings").replaceChildren(...(detail.standings.length ? [kit.standingsTable(detail.standings, me, "standings")] : []));
  }

  // Who plays with the player: the event's bots only, or 1 up to seats - 1 friends at one table.
  function fillFriends(event) {
    const select = $("friends");
    $("friends-line").hidden = !event.open;
    if (select.options.length === event.seats) return;
    const chosen = select.value || "0";
    select.replaceChildren(...Array.from({ length: event.seats }, (_, n) => whist.element("option",
      { value: String(n), text: n ? whist.t("event.friends_n", { n }) : whist.t("event.friends_bots") })));
    select.value = Number(chosen) < event.seats ? chosen : "0";
  }

  async function start() {
    finished.startPage(render);
    kit.wireGuestForm($("guest-form"), $("guest-name"), $("guest-error"), (user) => { me = user; load(); });
    me = await kit.whoAmI();
    await load();
    kit.keepFresh(load);
  }

  start().finally(whist.drawn);
});
