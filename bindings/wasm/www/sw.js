// The playground's service worker: network first, the last copy of each file from the cache when
// the network fails (or hangs for 2 s), so that a page loaded once keeps working offline (and never serves a stale
// file while the server is reachable).
const CACHE = 'libdealer-playground';

// The files the page needs, fetched when the service worker is installed.
// (DDS's module, ../pkg/gen/dds.wasm, is fetched, and then kept, only when a script needs it.)
const FILES = ['./', 'index.html', 'style.css', 'app.js', 'examples.js', 'dealer-worker.js', '../pkg/index.js', '../pkg/worker.js',
  '../pkg/worker-client.js', '../pkg/dds.js', '../pkg/dds-module.js', '../pkg/gen/dealer_wasm.js', '../pkg/gen/dealer_wasm_bg.wasm'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // A network that neither answers nor fails (offline emulation can hang) counts as failed
  // after 2 s.
  const network = Promise.race([
    fetch(request),
    new Promise((_, reject) => setTimeout(() => reject(new Error('network timeout')), 2000)),
  ]);
  event.respondWith(
    network
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(() => caches.match(request).then((cached) => cached || Response.error())),
  );
});
