// Bundles the compiled CLI (dist/cli/index.js, and the worker threads it starts) into dist/bundle/, which bin/tms
// runs. Node 20 spends about half a millisecond per ES module file on resolving, reading and linking it, and parses
// CommonJS packages imported from ES modules once more for their export names: a short command loading ~100 files
// paid more for that than for its work. Code splitting keeps every dynamic import a separate chunk, so a command still
// loads only what it uses. dist/bundle/ sits two folders below the checkout as every dist/<part>/ module does, so the
// paths the code takes from import.meta.url (language data, web assets, workers beside their module) stay right.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = path.join(root, 'dist', 'bundle');

/** Builds dist/bundle/ from dist/ (run after tsc); returns the output files. */
export async function buildCliBundle(): Promise<string[]> {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const banner = "import { createRequire as __tmsCreateRequire } from 'node:module'; const require = __tmsCreateRequire(import.meta.url);";
  const common: BuildOptions = {
    absWorkingDir: root,
    outdir: BUNDLE_DIR,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // a native addon: workers load the package as it is (it finds its binary relative to its own files)
    external: ['better-sqlite3'],
    // bundled CommonJS packages require Node's built-in modules
    banner: { js: banner },
    metafile: true,
    logLevel: 'warning',
  };
  // The CLI holds better-sqlite3's JavaScript (a dozen files a command opening the store loaded one by one), and is
  // told where its addon is (src/store/db.ts); `bindings`, its search for the addon, stays outside.
  const result = await build({
    ...common,
    external: ['bindings'],
    entryPoints: { tms: 'dist/cli/index.js' },
    splitting: true,
    chunkNames: 'chunk-[hash]',
  });
  // startWorker() looks for a worker's module beside the module starting it: here, beside every chunk. Built apart
  // (one file each), so that the modules they share with the CLI do not split its chunks into more, smaller files.
  const workers = await build({ ...common, entryPoints: workerEntries() });
  const metafiles = [result.metafile, workers.metafile];
  dropUnusedBanner(banner);
  // the configuration's prebuilt validator (and its code cache) is loaded beside the module that loads it
  for (const name of ['config-validator.cjs', 'config-validator.cache']) copyFileSync(path.join(root, 'dist', 'config', name), path.join(BUNDLE_DIR, name));
  // which sources each output holds, for the test of what a command loads
  const outputs: Record<string, string[]> = {};
  for (const metafile of metafiles) {
    for (const [file, output] of Object.entries(metafile?.outputs ?? {})) outputs[path.basename(file)] = Object.keys(output.inputs);
  }
  writeFileSync(path.join(BUNDLE_DIR, 'inputs.json'), `${JSON.stringify(outputs)}\n`);
  return Object.keys(outputs);
}

/**
 * Takes the banner off the files that never say `require` (most chunks): a module creating a require function it
 * does not use still costs a command that loads it.
 */
function dropUnusedBanner(banner: string): void {
  for (const name of readdirSync(BUNDLE_DIR)) {
    if (!name.endsWith('.js')) continue;
    const file = path.join(BUNDLE_DIR, name);
    const text = readFileSync(file, 'utf8');
    if (!text.startsWith(banner)) continue;
    const rest = text.slice(banner.length);
    if (!/\brequire\b/.test(rest)) writeFileSync(file, rest.replace(/^\n/, ''));
  }
}

/** Every compiled `*-worker.js` module (what startWorker() starts), by name; two of one name would collide here. */
function workerEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const file of readdirSync(path.join(root, 'dist'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('-worker.js') || file.startsWith(`bundle${path.sep}`)) continue;
    const name = path.basename(file, '.js');
    if (entries[name]) throw new Error(`two worker modules named ${name}: ${entries[name]} and dist/${file}`);
    entries[name] = `dist/${file.split(path.sep).join('/')}`;
  }
  return entries;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await buildCliBundle();
  console.log(`CLI bundle: ${files.length} files in dist/bundle/`);
}
