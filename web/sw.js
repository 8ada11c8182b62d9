// The table page's service worker, served at /sw.js so that it controls `/`.
// Network first for the page's own files (`/` and `/app/...`), so an upgrade shows at once, with
// the last copy kept in a cache for when the phone is offline. The API (`/v1/...`) and every other
// request go straight to the network, never cached here: the sheet queues offline rounds itself.

const CACHE = 'page-v1';
/** How long a page file may take before the cached copy is used instead (a weak connection). */
const PATIENCE_MS = 4000;

/** Whether `url` is one of the page's own files. */
function isPageFile(url) {
  return url.origin === self.location.origin && (url.pathname === '/' || url.pathname.startsWith('/app/'));
}

self.addEventListener('install', (event) => {
  // The shell, so that even the first visit works offline afterwards; the page sends the rest.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add('/')).catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The page lists the files it loaded before this worker controlled it (`{cache: [urls]}`).
self.addEventListener('message', (event) => {
  const urls = event.data && Array.isArray(event.data.cache) ? event.data.cache : [];
  const wanted = urls.map((url) => new URL(url, self.location.origin)).filter(isPageFile);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(wanted.map(async (url) => {
    if (await cache.match(url.href)) return;
    await cache.add(url.href).catch(() => {});
  }))));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!isPageFile(url)) return;
  event.respondWith(networkFirst(request, url));
});

async function networkFirst(request, url) {
  const cache = await caches.open(CACHE);
  // The page's address is `/` whatever its fragment or query: one copy of the shell.
  const key = url.pathname === '/' ? '/' : url.origin + url.pathname;
  const cached = await cache.match(key);
  const fromNetwork = fetch(request).then((response) => {
    if (response.ok) cache.put(key, response.clone()).catch(() => {});
    return response;
  });
  if (!cached) return fromNetwork;
  // With a copy at hand, a network that errs or dawdles is not waited for.
  let timer;
  const patience = new Promise((resolve) => { timer = setTimeout(() => resolve(cached), PATIENCE_MS); });
  try {
    return await Promise.race([fromNetwork, patience]);
  } catch {
    return cached;
  } finally {
    clearTimeout(timer);
  }
}
