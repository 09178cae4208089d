// Real headless Chromium for the dashboard's end-to-end tests: Debian's `chromium` package driven
// by playwright-core, which never downloads a browser of its own. Where the package is missing the
// browser suites skip with one message naming it, except in CI (`CI=true`), where a skip would
// hide a broken CI image and the suite fails instead.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** No sandbox (CI runs as root); nothing that phones home, so no test reaches the internet. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const inCi = process.env.CI === 'true';

/**
 * Test options for a suite that drives Chromium: `{ skip: message }` when the browser is missing,
 * `{}` when present. In CI a missing browser throws, so the file fails loudly.
 */
export function browserSuite(): { skip?: string } {
  if (fs.existsSync(CHROMIUM_PATH)) return {};
  const problem = `chromium missing: ${CHROMIUM_PATH} not found (install Debian's package: apt-get install -y chromium)`;
  if (inCi) throw new Error(`CI=true but ${problem}`);
  return { skip: problem };
}

/** `extraArgs`, e.g. `--host-resolver-rules=MAP *.site.test 127.0.0.1` to reach loopback by other names. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
