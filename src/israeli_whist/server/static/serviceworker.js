// The app's service worker, served as /sw.js (server/webapp.py puts VERSION and KEPT above this).
// The network first, always, as the pages ask (an old script must not run against a new server);
// the kept copies only when the network fails; and for a page, the offline page, which says that
// the table needs the connection. Nothing but GETs of this site's pages and static files is
// touched: the API, the table's socket and every change go to the server as if there were no worker.
const CACHE = `whist-${VERSION}`;
const OFFLINE = "/offline";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

function kept(url) {
  return url.origin === self.location.origin && (url.pathname.startsWith("/static/") || KEPT.includes(url.pathname));
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(request, { ignoreSearch: true });
    if (copy) return copy;
    throw error;
  }
}

async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch (error) {
    return (await caches.match(OFFLINE)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate" && url.origin === self.location.origin) event.respondWith(pageOrOffline(request));
  else if (kept(url)) event.respondWith(networkFirst(request));
});

// A turn alert tapped (alerts.js shows it with the table's address): back to that table's page,
// the open one if there is one, a new one otherwise.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => new URL(client.url).pathname === target.pathname);
    return open ? open.focus() : self.clients.openWindow(target.href);
  }));
});
