// The service worker of the Conquian page (served as /sw.js, its scope the whole site).
// It keeps the page's own files, the app shell, so that the page opens without a network
// and says that it is offline, instead of the browser's error page.  Every answer is taken
// from the network first (the server sends its files with Cache-Control: no-cache, so a
// new version is seen at once); the kept copy is used only when the network fails.  The
// game itself (the API, the websocket) always goes to the server and is never kept.

/** This worker's global scope (its lib: tsconfig.worker.json). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const CACHE = "conquian-shell-14";
// Every file the page needs to open: the page, each module it imports (tests/js checks that
// this list holds the whole import graph of app.js), its style and icons.
const SHELL = [
  "/",
  "/static/app.js",
  "/static/cards.js",
  "/static/fair.js",
  "/static/passkeys.js",
  "/static/html.js",
  "/static/memory.js",
  "/static/motion.js",
  "/static/page.js",
  "/static/server.js",
  "/static/seats.js",
  "/static/sound.js",
  "/static/words.js",
  "/static/game/banners.js",
  "/static/game/clock.js",
  "/static/game/talk.js",
  "/static/game/conduct.js",
  "/static/game/dock.js",
  "/static/game/draw.js",
  "/static/game/events.js",
  "/static/game/fairness.js",
  "/static/game/hand.js",
  "/static/game/input.js",
  "/static/game/review.js",
  "/static/game/scene.js",
  "/static/game/screen.js",
  "/static/game/side.js",
  "/static/game/socket.js",
  "/static/game/state.js",
  "/static/game/summary.js",
  "/static/game/table.js",
  "/static/screens/home.js",
  "/static/screens/join.js",
  "/static/screens/leaderboard.js",
  "/static/screens/account.js",
  "/static/screens/profile.js",
  "/static/screens/quick.js",
  "/static/screens/lobby.js",
  "/static/screens/replay.js",
  "/static/screens/rules.js",
  "/static/style.css",
  "/static/social.css",
  "/static/review.css",
  "/static/icon.svg",
  "/static/icon-192.png",
  "/manifest.webmanifest",
];

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

/** What a request is kept as: the page (any address of it: the route is in the fragment), its
 * files and its words; null for the rest (the game: always the server's).
 * @param {Request} request
 * @param {URL} url
 * @returns {Request | string | null} */
function kept(request, url) {
  if (request.mode === "navigate") return "/";
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") return request;
  if (url.pathname === "/api/words") return request;
  return null;
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
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
