// `npm start`: turns fixtures/demo into local git repositories on first run, syncs them, creates the demo sign-ins and serves the web interface and the API.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../src/auth/password.js';
import { main } from '../src/cli/index.js';
import { isServeWorker } from '../src/cli/serve-workers.js';
import { loadConfig } from '../src/config/config.js';
import { openStore } from '../src/store/index.js';
import { setPasswordHash } from '../src/store/sessions.repo.js';
import { createUser, findUserByUsername } from '../src/store/users.repo.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(root, 'fixtures', 'demo');
// PORT and TMS_DEMO_DIR move the demo (its address, its state) elsewhere: another port, a second demo beside the first.
const port = process.env.PORT ?? '8000';
const defaultState = path.join(root, '.demo');
const state = path.resolve(process.env.TMS_DEMO_DIR ?? defaultState);
const moved = state !== defaultState || port !== '8000';
/** fixtures/demo/tms.config.json, or when the demo moved, a copy of it in the state folder that points there. */
const config = moved ? path.join(state, 'tms.config.json') : path.join(demo, 'tms.config.json');
const upstream = path.join(state, 'upstream');
// what follows `npm start --` goes to `tms serve` (`npm start -- --workers 1`)
const serve = ['serve', '--config', config, '--host', '127.0.0.1', '--port', port, ...process.argv.slice(2)];

/** A path as the user would type it from here: relative inside the current folder, else absolute. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.split(path.sep)[0] === '..' || path.isAbsolute(relative) ? file : relative;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    stdio: 'pipe',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'tms demo',
      GIT_AUTHOR_EMAIL: 'demo@localhost',
      GIT_COMMITTER_NAME: 'tms demo',
      GIT_COMMITTER_EMAIL: 'demo@localhost',
    },
  });

/** Writes the moved demo's configuration: the fixture's, with the store, working copies and upstreams in `state`. */
function writeMovedConfig(): void {
  const settings = JSON.parse(readFileSync(path.join(demo, 'tms.config.json'), 'utf8'));
  settings.site_url = `http://127.0.0.1:${port}`;
  settings.database = 'tms.sqlite';
  settings.repos_dir = 'repos';
  for (const project of settings.projects) {
    for (const component of project.components) component.repo = `upstream/${path.basename(component.repo)}`;
  }
  mkdirSync(state, { recursive: true });
  writeFileSync(config, `${JSON.stringify(settings, null, 2)}\n`);
}

/** A bare repository `<name>.git` holding the files of fixtures/demo/<name> in one commit on `main`. */
function ensureUpstream(name: string): void {
  const bare = path.join(upstream, `${name}.git`);
  if (existsSync(bare)) return;
  mkdirSync(upstream, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), `tms-demo-${name}-`));
  cpSync(path.join(demo, name), work, { recursive: true });
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', `Demo ${name} files`);
  git(upstream, 'clone', '-q', '--bare', work, bare);
  rmSync(work, { recursive: true, force: true });
  console.log(`demo: created upstream repository ${shown(bare)}`);
}

/** The demo's sign-ins: a translator and an administrator (who may commit and push), created once. */
const DEMO_USERS = [
  { username: 'demo', password: 'demo-password', fullName: 'Demo Translator', admin: false },
  { username: 'admin', password: 'admin-password', fullName: 'Demo Admin', admin: true },
];

async function ensureDemoUsers(): Promise<void> {
  const store = await openStore(loadConfig(config).database);
  try {
    for (const u of DEMO_USERS) {
      if (await store.read((tx) => findUserByUsername(tx, u.username))) continue;
      await store.write((tx) => createUser(tx, { username: u.username, fullName: u.fullName, email: `${u.username}@example.org`, admin: u.admin }));
      const hash = await hashPassword(u.password);
      await store.write((tx) => setPasswordHash(tx, u.username, hash));
    }
  } finally {
    await store.close();
  }
}

/**
 * npm hands its own SIGINT and SIGTERM on to the demo (the script `exec`s it, so no shell swallows them), and Ctrl+C
 * reaches the demo from the terminal as well: two signals. While `tms serve` listens for one it stops cleanly on the
 * first, and the second must not cut that stop short; before it listens, a signal ends the demo as it would by default.
 */
function stopOnSignals(): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (process.listenerCount(signal) > 1) stopping = true;
      else if (!stopping) process.exit(128 + constants.signals[signal]);
    });
  }
}

async function run(): Promise<number> {
  stopOnSignals();
  if (moved) writeMovedConfig();
  for (const name of ['app', 'web', 'glossary']) ensureUpstream(name);
  for (const args of [
    ['check', '--config', config],
    ['sync', 'hello', '--config', config],
  ]) {
    console.log(`demo: tms ${args.join(' ')}`);
    const code = await main(args);
    if (code !== 0) {
      console.log(`demo: "tms ${args[0]}" did not complete (exit ${code}); the demo stops here.`);
      return code;
    }
  }
  await ensureDemoUsers();
  console.log('');
  console.log(`demo: open http://127.0.0.1:${port}/ in a browser and sign in as demo / demo-password`);
  console.log("demo: (admin / admin-password may also commit and push from a component's repository page)");
  console.log('');
  // The CLI finds this store through the same configuration file.
  console.log(`demo: in another shell, run the CLI against this store with: export TMS_CONFIG=${shown(config)}`);
  console.log(`demo: tms ${serve.join(' ')}`);
  const code = await main(serve);
  if (code !== 0) console.log(`demo: "tms serve" did not complete (exit ${code}).`);
  return code;
}

// `tms serve --workers N` forks its serving workers from this same script: a worker only serves.
const code = isServeWorker() ? await main(serve) : await run();
process.exitCode = code;
// a failure ends the demo even if something it started (a watcher, a pool) keeps the event loop alive
if (code !== 0) process.stdout.write('', () => process.exit(code));
