// The service worker of the Conquian page (served as /sw.js, its scope the whole site).
// It keeps the page's own files, the app shell, so that the page opens without a network
// and says that it is offline, instead of the browser's error page.  Every answer is taken
// from the network first (the server sends its files with Cache-Control: no-cache, so a
// new version is seen at once); the kept copy is used only when the network fails.  The
// game itself (the API, the websocket) always goes to the server and is never kept.

const CACHE = "conquian-shell-1";
const SHELL = [
  "/",
  "/static/app.js",
  "/static/cards.js",
  "/static/words.js",
  "/static/fair.js",
  "/static/style.css",
  "/static/icon.svg",
  "/static/icon-192.png",
  "/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// The page (any address of it: the route is in the fragment), its files and its words.
function kept(request, url) {
  if (request.mode === "navigate") return "/";
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") return request;
  if (url.pathname === "/api/words") return request;
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const key = kept(request, url);
  if (key === null) return; // the game: always the server's
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
        }
        return response;
      })
      .catch(() =>
        caches.match(key, { ignoreSearch: key === "/" }).then((hit) => hit || Response.error()),
      ),
  );
});
