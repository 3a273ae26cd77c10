// `npm start`: turns fixtures/demo into local git repositories on first run, syncs them, creates the demo sign-ins and serves the web interface and the API.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../src/auth/password.js';
import { main } from '../src/cli/index.js';
import { loadConfig } from '../src/config/config.js';
import { openStore } from '../src/store/index.js';
import { setPasswordHash } from '../src/store/sessions.repo.js';
import { createUser, findUserByUsername } from '../src/store/users.repo.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(root, 'fixtures', 'demo');
const config = path.join(demo, 'tms.config.json');
const upstream = path.join(root, '.demo', 'upstream');

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
  console.log(`demo: created upstream repository .demo/upstream/${name}.git`);
}

for (const name of ['app', 'web', 'glossary']) ensureUpstream(name);

const steps: string[][] = [
  ['check', '--config', config],
  ['sync', 'hello', '--config', config],
  ['serve', '--config', config, '--host', '127.0.0.1', '--port', process.env.PORT ?? '8000'],
];
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

for (const args of steps) {
  if (args[0] === 'serve') {
    await ensureDemoUsers();
    const port = process.env.PORT ?? '8000';
    console.log('');
    console.log(`demo: open http://127.0.0.1:${port}/ in a browser and sign in as demo / demo-password`);
    console.log("demo: (admin / admin-password may also commit and push from a component's repository page)");
    console.log('');
    // The CLI finds this store through the same configuration file.
    console.log(`demo: in another shell, run the CLI against this store with: export TMS_CONFIG=${path.relative(process.cwd(), config)}`);
  }
  console.log(`demo: tms ${args.join(' ')}`);
  const code = await main(args);
  if (code !== 0) {
    console.log(`demo: "tms ${args[0]}" did not complete (exit ${code}); the demo stops here.`);
    process.exit(code);
  }
}
