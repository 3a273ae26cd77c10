// The real browser for web tests: Debian's chromium found on the PATH, driven by playwright-core; tests skip visibly without it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page, chromium } from 'playwright-core';
import { ASSETS_DIR } from '../../src/web/assets.js';

/** The chromium executable on this machine (`$CHROMIUM`, else chromium or chromium-browser on the PATH), or null. */
export function findChromium(): string | null {
  if (process.env.CHROMIUM && existsSync(process.env.CHROMIUM)) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (found) return found;
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * Where web tests save pictures of their pages when run with `TMS_SCREENSHOTS=1` (`docs/screenshots/`, made here),
 * else null.
 */
export const SCREENSHOTS: string | null = process.env.TMS_SCREENSHOTS ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url)) : null;
if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });

export async function launchBrowser(executablePath: string): Promise<Browser> {
  // Root in a container has no user namespaces for chromium's sandbox.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * Builds the web assets when `npm install` has not (a checkout tested without its prepare step), or when a client
 * source (`src/web/client/`) changed after they were built (tests would otherwise drive yesterday's script).
 */
export async function ensureAssets(): Promise<void> {
  const manifest = path.join(ASSETS_DIR, 'manifest.json');
  if (existsSync(manifest)) {
    const built = statSync(manifest).mtimeMs;
    const client = path.join(ASSETS_DIR, '..', '..', 'src', 'web', 'client');
    if (readdirSync(client).every((name) => statSync(path.join(client, name)).mtimeMs <= built)) return;
  }
  const { buildAssets } = await import('../../scripts/build-assets.js');
  await buildAssets();
}

// Callbacks given to page.evaluate run in the browser; this program is typed without the DOM library.
// biome-ignore lint/suspicious/noExplicitAny: browser globals
declare const document: any;

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is: `rule: target…` lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the pages' Content-Security-Policy forbids injected script tags.
  await page.evaluate(AXE);
  const results = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected as a global
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return (results as { id: string; impact: string; targets: string[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 3).join(', ')}`);
}
