// The Chromium that every browser run launches (the browser tests through vitest.config.js,
// tests/platforms/run.mjs, bench/browser/run.js): Debian's /usr/bin/chromium, never a downloaded
// one (CHROMIUM_PATH overrides the path), headless and without network side traffic. One list, so
// that the three cannot drift apart.

/** The browser binary. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Its command-line flags (a fresh array each time: launchers may keep or change theirs). */
export function chromiumArgs() {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
}
