// The web interface's built assets (script, style, icon): fingerprinted names from the build's manifest, served with long caching; the icon also at /favicon.ico.
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Where `npm install` (the `prepare` script) leaves the built assets: `build/web/` at the package root. */
export const ASSETS_DIR = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'build', 'web');
export const ASSETS_PREFIX = '/static/';

interface Asset {
  bytes: Buffer;
  gzip: Buffer;
  type: string;
}

export interface Assets {
  /** The URL of a logical asset (`editor.js`, `style.css`), or undefined when it was not built. */
  url(name: string): string | undefined;
  /** Answers `/static/<file>`; false when the path is not an asset. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.ico': 'image/x-icon' };
/** Where browsers and tools ask for a site's icon whatever the page names. */
const FAVICON_PATH = '/favicon.ico';

/**
 * Loads the manifest and files once (they are small); a missing build is reported through `log` and pages go without.
 * @example const assets = loadAssets(); assets.url('style.css') // '/static/style-3f2a9c1b.css'
 */
export function loadAssets(dir: string = ASSETS_DIR, log: (message: string) => void = () => {}): Assets {
  const urls = new Map<string, string>();
  const files = new Map<string, Asset>();
  const manifest = path.join(dir, 'manifest.json');
  if (existsSync(manifest)) {
    for (const [name, file] of Object.entries(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>)) {
      const bytes = readFileSync(path.join(dir, file));
      files.set(file, { bytes, gzip: gzipSync(bytes, { level: 9 }), type: TYPES[path.extname(file)] ?? 'application/octet-stream' });
      urls.set(name, `${ASSETS_PREFIX}${file}`);
    }
  } else {
    log(`tms: web assets not built (${path.relative(process.cwd(), manifest)} missing): run "npm run build"`);
  }
  return {
    url: (name) => urls.get(name),
    serve(req, res, urlPath) {
      const icon = urlPath === FAVICON_PATH;
      if (!icon && !urlPath.startsWith(ASSETS_PREFIX)) return false;
      const name = icon ? urls.get('favicon.ico')?.slice(ASSETS_PREFIX.length) : urlPath.slice(ASSETS_PREFIX.length);
      const asset = name === undefined ? undefined : files.get(name);
      if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
        return true;
      }
      const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      const body = gzip ? asset.gzip : asset.bytes;
      res.writeHead(200, {
        'Content-Type': asset.type,
        'Content-Length': body.length,
        // The name changes with the content: a browser may keep it forever (the icon's fixed address, a day).
        'Cache-Control': icon ? 'public, max-age=86400' : 'public, max-age=31536000, immutable',
        Vary: 'Accept-Encoding',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
