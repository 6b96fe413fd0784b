/**
 * Chromium's flags with the extension at `dist`, as TOOLCHAIN.md has them: for the demo and the
 * e2e harnesses (test/e2e/browser.ts, unwatched-browser.ts). Offline: nothing beyond 127.0.0.1 is
 * reachable but the names `hostRules` maps there first.
 */
export function extensionArgs(dist: string, hostRules: readonly string[] = []): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--host-resolver-rules=${[...hostRules, 'MAP * ~NOTFOUND', 'EXCLUDE 127.0.0.1'].join(' , ')}`,
    `--disable-extensions-except=${dist}`,
    `--load-extension=${dist}`,
  ];
}
