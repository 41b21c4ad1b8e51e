// The offline page (offline.html): the page that was asked for is loaded again when the
// connection is back, or when the player asks.
"use strict";

whist.ready.then(() => {
  whist.applyLanguage();
  whist.initTopBar();
  const retry = () => window.location.reload();
  document.getElementById("offline-retry").addEventListener("click", retry);
  window.addEventListener("online", retry);
  whist.drawn();
});
