// Builds the web interface's assets into build/web/: the editor script and the style sheet, minified, and the site's icon, names fingerprinted by content.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build', 'web');
const entries = { 'editor.js': 'src/web/client/editor.js', 'style.css': 'src/web/client/style.css' };
/** Files copied as they are. */
const copies = { 'favicon.ico': 'src/web/client/favicon.ico' };

function fingerprinted(name: string, bytes: Uint8Array): string {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const ext = path.extname(name);
  return `${path.basename(name, ext)}-${hash}${ext}`;
}

/** Builds every entry and writes `manifest.json` (logical name → file name); returns the manifest. */
export async function buildAssets(): Promise<Record<string, string>> {
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(out)) rmSync(path.join(out, file));
  const manifest: Record<string, string> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const result = await build({
      entryPoints: [path.join(root, entry)],
      bundle: true,
      minify: true,
      write: false,
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      format: name.endsWith('.js') ? 'iife' : undefined,
      logLevel: 'warning',
    });
    const bytes = result.outputFiles[0]!.contents;
    const file = fingerprinted(name, bytes);
    writeFileSync(path.join(out, file), bytes);
    manifest[name] = file;
  }
  for (const [name, source] of Object.entries(copies)) {
    const bytes = readFileSync(path.join(root, source));
    const file = fingerprinted(name, bytes);
    writeFileSync(path.join(out, file), bytes);
    manifest[name] = file;
  }
  writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const manifest = await buildAssets();
  console.log(`web assets: ${Object.values(manifest).join(', ')} in build/web/`);
}
