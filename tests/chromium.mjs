// Headless Chromium for the playground's browser tests (tests/wasm_browser.mjs,
// tests/playground_manual_links.mjs): the browser CHROMIUM names (default /usr/bin/chromium)
// with a fresh profile folder each run (playwright passes it as --user-data-dir), no sandbox,
// GPU, QUIC or background traffic; `options` adds playwright context options.

export function launchChromium(chromium, profile, options = {}) {
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    ...options,
  });
}
