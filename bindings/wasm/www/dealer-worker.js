// The playground's worker entry: the package's worker, started from a URL inside the service
// worker's scope (this folder), so that the worker's own fetches (its imports and the wasm
// module) also go through the service worker and a page loaded once runs offline. A worker
// started from ../pkg/worker.js is outside that scope: its fetches go to the network and the
// HTTP cache, and fail offline once the cache counts the files stale.
import '../pkg/worker.js';
