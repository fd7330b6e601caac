// A static file server for the browser tests and the WebAssembly benchmark: python3's
// http.server on 127.0.0.1 at a free port, every answer marked `Cache-Control: no-cache` (the
// HTTP cache cannot stand in for the playground's service worker when the server is stopped)
// and cross-origin isolated (COOP and COEP headers: a page's worker may then wait for DDS's
// solver workers on a SharedArrayBuffer).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nobody listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Resolves once `url` answers 200 (within `ms`). */
export async function waitForServer(url, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no server at ${url}`);
}

const SERVE = `
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header('Cache-Control', 'no-cache')
        self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
        self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
        super().end_headers()
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), functools.partial(Handler, directory=sys.argv[2])).serve_forever()
`;

/**
 * Serves `dir`; resolves to {url (ending in /), server (the child process: kill() stops it)}
 * once `path` under it answers.
 */
export async function serve(dir, path = '') {
  const port = await freePort();
  const server = spawn('python3', ['-c', SERVE, String(port), dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForServer(url + path);
  } catch (e) {
    server.kill();
    throw e;
  }
  return { url, server };
}
