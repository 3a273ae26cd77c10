// Campaign hostile-repos: repositories built to hurt a sync (entity bombs in TS and TBX, external entities, JSON nested
// 100,000 deep, a 150 MB file, binary files, names with newlines or invalid UTF-8, codes with "..", symlinks out of the
// repository, a submodule). Each hostile file must be refused or reported with a reason while the good file beside it
// loads, the serving process's peak RSS stays ≤ HOSTILE_RSS_MB (500), and the API keeps answering throughout.
// HOSTILE_BIG_MB sets the big file's size (default 150).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openComponent } from '../src/component/handle.js';
import { loadConfig } from '../src/config/config.js';
import { startServer } from '../src/server/server.js';
import { openStore } from '../src/store/index.js';
import { findComponent } from '../src/store/projects.repo.js';
import { componentTranslations } from '../src/store/translations.repo.js';
import { translationUnits } from '../src/store/units.repo.js';
import { applyConfig } from '../src/sync/config.js';
import { syncComponent } from '../src/sync/index.js';
import { Campaign, MIB, envNumber, percentile, rssOf } from './campaign/lib.js';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const demo = path.join(root, 'fixtures', 'demo');

/** One hostile repository: a good file that must load, hostile files that must be refused or reported. */
interface Case {
  slug: string;
  filemask: string;
  format: 'ts' | 'tbx' | 'json-nested';
  template?: string;
  good: string;
  /** Repository paths (bytes allowed through latin1 escapes) of the hostile files, and what they are. */
  hostile: { what: string; path: string; build: (abs: string, repo: string) => void }[];
  /** A hostile path may also legitimately be left out by the file mask (then it must not appear at all). */
  outsideMask?: string[];
}

const TS_GOOD = readFileSync(path.join(demo, 'app', 'translations', 'app_de.ts'));
const TBX_GOOD = readFileSync(path.join(demo, 'glossary', 'de.tbx'));

function bomb(root: 'TS' | 'martif'): string {
  const levels = Array.from({ length: 10 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
  const body =
    root === 'TS'
      ? '<TS version="2.1" language="xx"><context><name>A</name><message><source>x</source><translation>&lol10;</translation></message></context></TS>'
      : '<martif type="TBX"><text><body><termEntry id="a"><langSet xml:lang="xx"><tig><term>&lol10;</term></tig></langSet></termEntry></body></text></martif>';
  return `<?xml version="1.0"?>\n<!DOCTYPE ${root} [\n<!ENTITY lol0 "lol">\n${levels}\n]>\n${body}\n`;
}

const write = (abs: string, data: string | Uint8Array) => {
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, data);
};

function cases(bigMb: number): Case[] {
  return [
    {
      slug: 'ts-entities',
      filemask: 'translations/app_*.ts',
      format: 'ts',
      good: 'translations/app_de.ts',
      hostile: [
        { what: 'billion laughs (10^10 expansions) in TS', path: 'translations/app_bo.ts', build: (a) => write(a, bomb('TS')) },
        {
          what: 'external entity (file:///etc/passwd) in TS',
          path: 'translations/app_ee.ts',
          build: (a) =>
            write(
              a,
              '<?xml version="1.0"?>\n<!DOCTYPE TS [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<TS version="2.1" language="ee"><context><name>A</name><message><source>x</source><translation>&xxe;</translation></message></context></TS>\n',
            ),
        },
      ],
    },
    {
      slug: 'tbx-entities',
      filemask: 'glossary/*.tbx',
      format: 'tbx',
      good: 'glossary/de.tbx',
      hostile: [{ what: 'billion laughs in TBX', path: 'glossary/fr.tbx', build: (a) => write(a, bomb('martif')) }],
    },
    {
      slug: 'json-deep',
      filemask: 'locales/*.json',
      format: 'json-nested',
      template: 'locales/en.json',
      good: 'locales/de.json',
      hostile: [
        {
          what: 'JSON nested 100,000 levels',
          path: 'locales/fr.json',
          build: (a) => write(a, `${'{"a":'.repeat(100_000)}"x"${'}'.repeat(100_000)}`),
        },
      ],
    },
    {
      slug: 'big-binary',
      filemask: 'translations/app_*.ts',
      format: 'ts',
      good: 'translations/app_de.ts',
      hostile: [
        {
          what: `a ${bigMb} MB file`,
          path: 'translations/app_bg.ts',
          build: (a) => {
            const head = '<?xml version="1.0"?>\n<TS version="2.1" language="bg"><context><name>A</name><message><source>x</source><translation>';
            const tail = '</translation></message></context></TS>\n';
            write(a, Buffer.concat([Buffer.from(head), Buffer.alloc(bigMb * MIB, 0x61), Buffer.from(tail)]));
          },
        },
        {
          what: 'random binary bytes matching the mask',
          path: 'translations/app_bi.ts',
          build: (a) => write(a, Buffer.from(Array.from({ length: 65536 }, (_, i) => (i * 7919 + 13) % 256))),
        },
        { what: 'a file of NUL bytes', path: 'translations/app_nu.ts', build: (a) => write(a, Buffer.alloc(4096)) },
        {
          what: 'UTF-16 text with a BOM',
          path: 'translations/app_ut.ts',
          build: (a) => write(a, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TS_GOOD.toString(), 'utf16le')])),
        },
      ],
    },
    {
      slug: 'names',
      filemask: 'translations/app_*.ts',
      format: 'ts',
      good: 'translations/app_de.ts',
      hostile: [
        { what: 'a file name with a newline', path: 'translations/app_n\nl.ts', build: (a) => write(a, TS_GOOD) },
        {
          what: 'a file name with invalid UTF-8',
          path: Buffer.from([...Buffer.from('translations/app_'), 0xff, 0xfe, ...Buffer.from('.ts')]).toString('latin1'),
          build: () => {},
        },
        { what: 'a language code ".."', path: 'translations/app_...ts', build: (a) => write(a, TS_GOOD) },
        { what: 'a language code "a..b"', path: 'translations/app_a..b.ts', build: (a) => write(a, TS_GOOD) },
      ],
    },
    {
      slug: 'links',
      filemask: 'translations/app_*.ts',
      format: 'ts',
      good: 'translations/app_de.ts',
      hostile: [
        {
          what: 'a symlink out of the repository (relative)',
          path: 'translations/app_sl.ts',
          build: (a) => symlinkSync('../../../../../../../../etc/passwd', a),
        },
        { what: 'a symlink to an absolute path', path: 'translations/app_sa.ts', build: (a) => symlinkSync('/etc/hostname', a) },
        { what: 'a symlink to a good file inside the repository', path: 'translations/app_si.ts', build: (a) => symlinkSync('app_de.ts', a) },
        { what: 'a submodule (gitlink) matching the mask', path: 'translations/app_sm.ts', build: () => {} },
      ],
    },
  ];
}

/** Builds the case's bare upstream with the git CLI (names with any byte, symlinks, a gitlink). */
function buildUpstream(work: string, c: Case): string {
  const src = path.join(work, 'src', c.slug);
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: src,
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: work,
        GIT_AUTHOR_NAME: 'x',
        GIT_AUTHOR_EMAIL: 'x@x',
        GIT_COMMITTER_NAME: 'x',
        GIT_COMMITTER_EMAIL: 'x@x',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  mkdirSync(src, { recursive: true });
  git('init', '-q', '-b', 'main');
  if (c.format === 'ts') write(path.join(src, c.good), TS_GOOD);
  if (c.format === 'tbx') write(path.join(src, c.good), TBX_GOOD);
  if (c.format === 'json-nested') {
    write(path.join(src, 'locales', 'en.json'), readFileSync(path.join(demo, 'web', 'locales', 'en.json')));
    write(path.join(src, c.good), readFileSync(path.join(demo, 'web', 'locales', 'de.json')));
  }
  const special: Buffer[] = [];
  for (const h of c.hostile) {
    if (h.what.includes('invalid UTF-8')) {
      // a path git stores as bytes (not UTF-8): written through the index, not the file system
      const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: src, input: TS_GOOD }).toString().trim();
      special.push(Buffer.concat([Buffer.from(`100644 ${blob}\t`), Buffer.from(h.path, 'latin1'), Buffer.from('\n')]));
    } else if (h.what.includes('submodule')) {
      special.push(Buffer.from(`160000 ${'1'.repeat(40)}\t${h.path}\n`));
      write(path.join(src, '.gitmodules'), `[submodule "sm"]\n\tpath = ${h.path}\n\turl = ../elsewhere.git\n`);
    } else {
      h.build(path.join(src, h.path), src);
    }
  }
  git('add', '-A');
  if (special.length > 0) execFileSync('git', ['update-index', '--index-info'], { cwd: src, input: Buffer.concat(special) });
  git('commit', '-q', '-m', 'hostile');
  const bare = path.join(work, 'upstream', `${c.slug}.git`);
  execFileSync('git', ['clone', '-q', '--bare', src, bare]);
  rmSync(src, { recursive: true, force: true });
  return bare;
}

/** The child: the API served while every case is synced, one after another; results on stdout as JSON lines. */
async function child(configFile: string): Promise<void> {
  const config = loadConfig(configFile);
  const store = await openStore(config.database);
  await store.write((tx) => applyConfig(tx, config));
  const server = await startServer({ store, config, host: '127.0.0.1', port: 0, log: (m) => process.stderr.write(`SERVER-LOG ${m}\n`) });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  const project = config.projects[0]!;
  for (const component of project.components) {
    const started = performance.now();
    let result: unknown;
    try {
      result = await syncComponent(await openComponent(store, config, project, component));
    } catch (e) {
      result = { ok: false, thrown: (e as Error).stack };
    }
    const row = (await store.read((tx) => findComponent(tx, project.slug, component.slug)))!;
    const translations = await store.read((tx) => componentTranslations(tx, row.id));
    const loaded: Record<string, number> = {};
    for (const t of translations) loaded[t.filename] = (await store.read((tx) => translationUnits(tx, t.id))).length;
    const targets = (await Promise.all(translations.map((t) => store.read((tx) => translationUnits(tx, t.id))))).flat().map((u) => u.target);
    process.stdout.write(
      `${JSON.stringify({ slug: component.slug, ms: performance.now() - started, result, loaded, leaked: targets.some((t) => t.includes('root:')) })}\n`,
    );
  }
  process.stdout.write('{"done":true}\n');
  await new Promise(() => {});
}

interface ChildLine {
  url?: string;
  done?: boolean;
  slug?: string;
  ms?: number;
  loaded?: Record<string, number>;
  leaked?: boolean;
  result?: {
    ok: boolean;
    error?: string;
    thrown?: string;
    files: { path: string; status: string; error?: string }[];
    skipped: { path: string; reason: string }[];
    warnings: string[];
  };
}

async function main(): Promise<number> {
  const campaign = new Campaign('hostile-repos');
  const rssLimit = envNumber('HOSTILE_RSS_MB', 500) * MIB;
  const bigMb = envNumber('HOSTILE_BIG_MB', 150);
  const work = path.join(os.tmpdir(), `tms-campaign-hostile-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  const all = cases(bigMb);
  const components = all.map((c) => ({
    name: c.slug,
    slug: c.slug,
    repo: buildUpstream(work, c),
    branch: 'main',
    filemask: c.filemask,
    file_format: c.format,
    ...(c.template ? { template: c.template } : {}),
  }));
  const configFile = path.join(work, 'tms.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', rate_limit: { anonymous: '' }, projects: [{ name: 'Hostile', slug: 'hostile', components }] }),
  );
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', self, 'child', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const serverErrors: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => {
    if (l.startsWith('SERVER-LOG')) serverErrors.push(l);
  });
  const lines: ChildLine[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: proc.stdout! }).on('line', (l) => {
    lines.push(JSON.parse(l) as ChildLine);
    for (const w of waiters.splice(0)) w();
  });
  const next = async (pred: (l: ChildLine) => boolean, ms = 300_000): Promise<ChildLine> => {
    const end = Date.now() + ms;
    for (;;) {
      const found = lines.find(pred);
      if (found) return found;
      if (Date.now() > end || proc.exitCode !== null) throw new Error(`the serving process stopped or stalled (exit ${proc.exitCode})`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  let peak = 0;
  const latencies: number[] = [];
  let failedProbes = 0;
  try {
    const { url } = await next((l) => l.url !== undefined, 60_000);
    // the API answers while the hostile syncs run: probe it every 100 ms
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        try {
          const r = await fetch(`${url}/api/projects/`, { signal: AbortSignal.timeout(10_000) });
          await r.arrayBuffer();
          if (r.status !== 200) failedProbes++;
        } catch {
          failedProbes++;
        }
        latencies.push(performance.now() - started);
        campaign.count('api_probes');
        peak = Math.max(peak, rssOf(proc.pid!) ?? 0);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await next((l) => l.done === true);
    probing = false;
    await probe;
    peak = Math.max(peak, rssOf(proc.pid!) ?? 0);

    for (const c of all) {
      const line = lines.find((l) => l.slug === c.slug)!;
      const r = line.result!;
      campaign.count('repositories');
      if (r.thrown) campaign.violate(`${c.slug}: the sync threw: ${r.thrown.split('\n')[0]}`);
      if (!line.loaded?.[c.good]) campaign.violate(`${c.slug}: the good file ${c.good} did not load (${r.error ?? JSON.stringify(line.loaded)})`);
      if (line.leaked) campaign.violate(`${c.slug}: a unit holds the content of /etc/passwd`);
      for (const h of c.hostile) {
        campaign.count('hostile_files');
        // a name is reported as JSON when it holds control characters, with U+FFFD where it is not UTF-8
        const names = [h.path, JSON.stringify(h.path), Buffer.from(h.path, 'latin1').toString('utf8')];
        const file = r.files.find((f) => names.includes(f.path));
        const skipped = r.skipped.find((s) => names.includes(s.path));
        const loadedHostile = names.map((n) => line.loaded?.[n]).find((n) => n !== undefined);
        let outcome: string;
        if (file?.status === 'failed') outcome = `refused: ${file.error}`;
        else if (skipped) outcome = `skipped: ${skipped.reason}`;
        else if (loadedHostile !== undefined) outcome = `loaded (${loadedHostile} units)`;
        else outcome = 'not reported';
        campaign.note(`${c.slug}: ${h.what}: ${outcome.split('\n')[0]!.slice(0, 220)}`);
        // a link to a file the mask lists too is that file, listed once (as Weblate does)
        const sameFile = h.what.includes('inside the repository');
        if (outcome === 'not reported' && sameFile) continue;
        if (outcome === 'not reported') campaign.violate(`${c.slug}: ${h.what} (${JSON.stringify(h.path)}) is neither loaded nor refused nor reported`);
        else if (outcome.startsWith('loaded')) campaign.violate(`${c.slug}: ${h.what} was loaded as a translation`);
      }
    }
    if (serverErrors.length > 0) campaign.violate(`the server logged ${serverErrors.length} unexpected error(s): ${serverErrors[0]}`);
    if (failedProbes > 0) campaign.violate(`${failedProbes} API probes failed during the syncs`);
    if (peak > rssLimit) campaign.violate(`peak RSS ${Math.round(peak / MIB)} MiB over ${rssLimit / MIB} MiB`);
  } finally {
    proc.kill('SIGKILL');
    if (!process.env.HOSTILE_KEEP) rmSync(work, { recursive: true, force: true });
    else campaign.note(`kept ${work}`);
  }
  return campaign.finish({
    peak_rss_mib: Math.round(peak / MIB),
    api_p50_ms: percentile(latencies, 50).toFixed(1),
    api_max_ms: Math.max(0, ...latencies).toFixed(1),
    big_file_mb: bigMb,
  });
}

if (process.argv[2] === 'child') await child(process.argv[3]!);
else process.exitCode = await main();
