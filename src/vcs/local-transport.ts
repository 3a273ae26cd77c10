// The bridge that lets isomorphic-git (which only speaks smart HTTP) fetch from and push to local repositories.
//
// isomorphic-git reaches remotes through an `http` client. For a local path or `file://` URL the vcs layer hands
// isomorphic-git a placeholder URL on the reserved `.invalid` domain and wraps the http client: requests for that
// host never touch a socket; each one runs the git CLI's own server half in stateless-RPC mode, exactly what
// `git http-backend` runs behind a web server:
//   GET  …/info/refs?service=git-upload-pack → `git upload-pack --stateless-rpc --advertise-refs <path>`
//   POST …/git-upload-pack                   → `git upload-pack --stateless-rpc <path>`
//   POST …/git-receive-pack                  → `git receive-pack --stateless-rpc <path>`
// Why this and not the alternatives: copying objects between object databases through `fs` would re-implement
// negotiation, shallow handling, hooks and ref locking; a loopback HTTP server would open a port; `git http-backend`
// adds CGI parsing and needs `http.receivepack`. Running upload-pack/receive-pack directly keeps git itself
// responsible for the repository (bare or not, `path` or `path/.git`, hooks, `receive.denyCurrentBranch`), while
// every byte still goes through the same isomorphic-git code path as a real http(s) remote.
import { spawn } from 'node:child_process';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';

const ORIGIN = 'http://local-repository.invalid/';
const SERVICES = new Set(['git-upload-pack', 'git-receive-pack']);

/** Variables that would point a child git at another repository than the one named on its command line. */
const REPOSITORY_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_PROTOCOL',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_SHALLOW_FILE',
  'GIT_GRAFT_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_QUARANTINE_PATH',
];

/** The placeholder URL under which isomorphic-git reaches the local repository at `repoPath` (absolute). */
export function localTransportUrl(repoPath: string): string {
  return ORIGIN + encodeURIComponent(repoPath);
}

/** True for a URL made by `localTransportUrl`. */
export function isLocalTransportUrl(url: string): boolean {
  return url.startsWith(ORIGIN);
}

/** Wraps `http` so that placeholder URLs are served by the local git CLI; every other request passes through. */
export function withLocalTransport(http: HttpClient): HttpClient {
  return {
    request: (req) => (isLocalTransportUrl(req.url) ? serveLocal(req) : http.request(req)),
  };
}

async function serveLocal(req: GitHttpRequest): Promise<GitHttpResponse> {
  const rest = req.url.slice(ORIGIN.length);
  const slash = rest.indexOf('/');
  const repoPath = decodeURIComponent(rest.slice(0, slash));
  const target = new URL(rest.slice(slash), 'http://x');
  const method = req.method ?? 'GET';

  if (method === 'GET' && target.pathname === '/info/refs') {
    const service = target.searchParams.get('service') ?? '';
    if (!SERVICES.has(service)) return reply(req, 403, 'Forbidden', 'text/plain', Buffer.from('dumb http is not served'));
    const run = await runGit([service.slice(4), '--stateless-rpc', '--advertise-refs', repoPath], []);
    if (run.code !== 0) return failure(req, run.stderr);
    const header = pktLine(`# service=${service}\n`);
    const body = Buffer.concat([header, Buffer.from('0000'), run.stdout]);
    return reply(req, 200, 'OK', `application/x-${service}-advertisement`, body);
  }
  const service = target.pathname.slice(1);
  if (method === 'POST' && SERVICES.has(service)) {
    const input: Uint8Array[] = [];
    if (req.body) for await (const chunk of req.body) input.push(chunk);
    const run = await runGit([service.slice(4), '--stateless-rpc', repoPath], input);
    if (run.code !== 0 && run.stdout.length === 0) return failure(req, run.stderr);
    return reply(req, 200, 'OK', `application/x-${service}-result`, run.stdout);
  }
  return reply(req, 404, 'Not Found', 'text/plain', Buffer.from('unknown request'));
}

/** A repository that git cannot open is a 404, like `git http-backend` answers; anything else a 500. */
function failure(req: GitHttpRequest, stderr: Buffer): GitHttpResponse {
  const text = stderr.toString('utf8');
  const missing = /does not appear to be a git repository|not a git repository|No such file or directory/i.test(text);
  return missing ? reply(req, 404, 'Not Found', 'text/plain', stderr) : reply(req, 500, 'Internal Server Error', 'text/plain', stderr);
}

function reply(req: GitHttpRequest, statusCode: number, statusMessage: string, contentType: string, body: Buffer): GitHttpResponse {
  return {
    url: req.url,
    method: req.method,
    statusCode,
    statusMessage,
    headers: { 'content-type': contentType, 'content-length': String(body.length) },
    body: (async function* () {
      if (body.length > 0) yield new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    })(),
  };
}

function pktLine(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);
}

interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: Buffer;
}

/** The process's environment without the variables that would point a child git at another repository. */
export function repositoryFreeEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of REPOSITORY_ENV) delete env[name];
  return env;
}

function runGit(args: string[], input: Uint8Array[]): Promise<RunResult> {
  const env = repositoryFreeEnv();
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // git may exit before reading all of its input (a repository it cannot open): that is not our error.
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }));
    for (const chunk of input) child.stdin.write(chunk);
    child.stdin.end();
  });
}
