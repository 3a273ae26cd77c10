// "Did upstream move?" answered without isomorphic-git (whose bundle takes longer to load than a no-change sync's
// own work): the working copy's refs read from their files, upstream's branch from one ref advertisement.
// Only an exact, unremarkable answer counts; anything else (a detached HEAD, a symbolic or odd ref, a redirect, a
// 401, a dumb server, a network error) is `undefined`, and the caller takes the full path through `vcs/index.ts`,
// which does the real work and reports the real errors. A remote silent for the whole limit is the one failure
// reported here (VcsError kind `timeout`): the full path would only wait as long again.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Credentials, parseRemote } from './remote-url.js';
import { DEFAULT_REMOTE_TIMEOUT_MS, silentRemote } from './vcs-error.js';

const OID = /^[0-9a-f]{40}$/;
/** Branch names read here: plain ones only (no `..`, no control characters); others take the full path. */
const PLAIN_BRANCH = /^(?!.*\.\.)[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
const SERVICE = 'git-upload-pack';

function errorCode(e: unknown): string | undefined {
  return (e as { code?: string } | null)?.code;
}

async function readText(file: string): Promise<string | null | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = errorCode(e);
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
}

/** The branch HEAD is on (`ref: refs/heads/<branch>`); undefined when detached, unreadable or unusual. */
export async function headBranch(dir: string): Promise<string | undefined> {
  const head = (await readText(path.join(dir, '.git', 'HEAD')))?.trim();
  const branch = head?.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : undefined;
  return branch !== undefined && PLAIN_BRANCH.test(branch) ? branch : undefined;
}

/**
 * A ref's commit id as git resolves it (its loose file, else `packed-refs`); null when neither names it; undefined
 * when unsure (a symbolic ref, an unreadable file, an id that is not one).
 */
export async function refOid(dir: string, ref: string): Promise<string | null | undefined> {
  const gitDir = path.join(dir, '.git');
  const loose = await readText(path.join(gitDir, ref));
  if (loose === undefined) return undefined;
  if (loose !== null) {
    const oid = loose.trim();
    return OID.test(oid) ? oid : undefined;
  }
  const packed = await readText(path.join(gitDir, 'packed-refs'));
  if (packed === null || packed === undefined) return packed;
  for (const line of packed.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space < 0 || line.slice(space + 1).trimEnd() !== ref) continue;
    const oid = line.slice(0, space);
    return OID.test(oid) ? oid : undefined;
  }
  return null;
}

interface Answer {
  statusCode: number;
  contentType: string | undefined;
  body: Buffer;
}

/** Thrown by `get` when the remote sent nothing for the whole limit. */
class Silence extends Error {}

/** One GET over http(s), no redirects followed, a fresh connection closed after it; Silence after `timeoutMs` idle. */
async function get(url: string, headers: Record<string, string>, timeoutMs: number): Promise<Answer> {
  const { request } = url.startsWith('https:') ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { ...headers, connection: 'close' }, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(chunks) }));
      res.on('error', (e) => reject(silent ? new Silence() : e));
    });
    let silent = false;
    req.on('timeout', () => {
      silent = true;
      req.destroy(new Silence());
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same request to a local repository, answered by git's own upload-pack (see local-transport.ts). */
async function getLocal(repoPath: string): Promise<Answer> {
  // loaded here: it loads child_process, which an http(s) remote does not need
  const { localTransportUrl, withLocalTransport } = await import('./local-transport.js');
  const url = `${localTransportUrl(repoPath)}/info/refs?service=${SERVICE}`;
  const http = withLocalTransport({
    request: () => Promise.reject(new Error('not a local-transport URL')),
  });
  const res = await http.request({ url, method: 'GET', headers: {} });
  const chunks: Uint8Array[] = [];
  if (res.body) for await (const chunk of res.body) chunks.push(chunk);
  return { statusCode: res.statusCode, contentType: res.headers?.['content-type'], body: Buffer.concat(chunks) };
}

/**
 * The commit `refs/heads/<branch>` has in a smart-HTTP ref advertisement (protocol v0/v1: `# service=` line, flush,
 * then `<oid> <ref>[\0capabilities]` lines up to a flush); null when the complete list does not name it; undefined
 * when the body is not such a list.
 */
export function advertisedOid(body: Buffer, branch: string): string | null | undefined {
  const wanted = `refs/heads/${branch}`;
  let at = 0;
  let first = true;
  while (at + 4 <= body.length) {
    const length = Number.parseInt(body.toString('latin1', at, at + 4), 16);
    if (!Number.isInteger(length) || (length > 0 && length < 4)) return undefined;
    if (length === 0) {
      at += 4;
      // the flush after the service line; the one after the refs ends the list
      if (first) continue;
      return null;
    }
    if (at + length > body.length) return undefined;
    let line = body.toString('utf8', at + 4, at + length);
    at += length;
    if (first && line.startsWith('# service=')) {
      if (line.trimEnd() !== `# service=${SERVICE}`) return undefined;
      continue;
    }
    first = false;
    const nul = line.indexOf('\0');
    if (nul >= 0) line = line.slice(0, nul);
    line = line.trimEnd();
    const space = line.indexOf(' ');
    if (space !== 40 || !OID.test(line.slice(0, 40))) return undefined;
    if (line.slice(41) === wanted) return line.slice(0, 40);
  }
  return undefined;
}

/** How long an answer asked for early stays good: long enough for the store to open, short enough not to go stale. */
const EARLY_ANSWER_MS = 5_000;
const early = new Map<string, { asked: number; answer: Promise<string | undefined> }>();

function earlyKey(url: string, branch: string, auth: Credentials | undefined, timeoutMs: number): string {
  return JSON.stringify([url, branch, auth?.username ?? null, auth?.password ?? null, timeoutMs]);
}

/**
 * Starts asking upstream for HEAD's branch of the working copy in `dir` now, so that the answer travels while the
 * process does other work (loading and opening the store); the next `advertisedBranchHead` for the same remote and
 * branch within a few seconds takes it, once.
 */
export async function askEarly(dir: string, url: string, auth?: Credentials, timeoutMs = DEFAULT_REMOTE_TIMEOUT_MS): Promise<void> {
  const branch = await headBranch(dir);
  if (branch === undefined) return;
  const key = earlyKey(url, branch, auth, timeoutMs);
  if (early.has(key)) return;
  const answer = ask(url, branch, auth, timeoutMs);
  // an answer nobody takes may fail unseen; the one who takes it sees the failure
  answer.catch(() => {});
  early.set(key, { asked: Date.now(), answer });
}

/**
 * The commit upstream's `branch` points at, from one ref advertisement (`GET …/info/refs?service=git-upload-pack`,
 * sent as isomorphic-git sends it: without credentials first, with them after a 401); undefined when that does not
 * give a plain answer (the caller then asks through isomorphic-git).
 */
export async function advertisedBranchHead(
  url: string,
  branch: string,
  auth?: Credentials,
  timeoutMs = DEFAULT_REMOTE_TIMEOUT_MS,
): Promise<string | undefined> {
  const key = earlyKey(url, branch, auth, timeoutMs);
  const asked = early.get(key);
  early.delete(key);
  if (asked && Date.now() - asked.asked <= EARLY_ANSWER_MS) return asked.answer;
  return ask(url, branch, auth, timeoutMs);
}

async function ask(url: string, branch: string, auth: Credentials | undefined, timeoutMs: number): Promise<string | undefined> {
  let display = url;
  try {
    const remote = parseRemote(url);
    display = remote.display;
    let answer: Answer;
    if (remote.transport === 'local') {
      answer = await getLocal(remote.path);
    } else {
      const target = `${remote.url}/info/refs?service=${SERVICE}`;
      const headers: Record<string, string> = { 'user-agent': 'git/tms', accept: '*/*' };
      answer = await get(target, headers, timeoutMs);
      const credentials = auth ?? remote.credentials;
      if (answer.statusCode === 401 && credentials) {
        const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
        answer = await get(target, { ...headers, authorization: `Basic ${basic}` }, timeoutMs);
      }
    }
    if (answer.statusCode !== 200 || answer.contentType !== `application/x-${SERVICE}-advertisement`) return undefined;
    return advertisedOid(answer.body, branch) ?? undefined;
  } catch (e) {
    if (e instanceof Silence) throw silentRemote('ls-remote', display, timeoutMs);
    return undefined;
  }
}

/**
 * HEAD's commit when the working copy in `dir` is where upstream is (HEAD on a branch, its remote-tracking ref and
 * upstream's branch all name that commit): nothing to fetch or move. Undefined otherwise, or when unsure.
 */
export async function upToDateHead(dir: string, url: string, auth?: Credentials, timeoutMs = DEFAULT_REMOTE_TIMEOUT_MS): Promise<string | undefined> {
  const branch = await headBranch(dir);
  if (branch === undefined) return undefined;
  const head = await refOid(dir, `refs/heads/${branch}`);
  if (!head || (await refOid(dir, `refs/remotes/origin/${branch}`)) !== head) return undefined;
  return (await advertisedBranchHead(url, branch, auth, timeoutMs)) === head ? head : undefined;
}
