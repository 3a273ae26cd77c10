// Campaign fuzz: property-based requests over the route table (every route, every method, hostile paths, queries,
// bodies, headers, multipart) against the real server in a child process: 0 × 5xx, every error in the one JSON
// shape, the server's memory bounded. FUZZ_RUNS (default 300), FUZZ_SECONDS (60), FUZZ_SEED, FUZZ_RSS_MB (600).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { ROUTES } from '../src/api/routes.js';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, openSession } from '../src/api/session.js';
import { startServer } from '../src/server/server.js';
import { WEB_ROUTES } from '../src/web/routes.js';
import { createApiFixture } from '../test/helpers/api-fixture.js';
import { sqlOn } from '../test/helpers/store.js';
import { Campaign, MIB, type RawAnswer, envNumber, rawRequest, rssOf } from './campaign/lib.js';

const self = fileURLToPath(import.meta.url);

/** The child: the API fixture (demo projects, users, edits) served on an ephemeral loopback port. */
async function serve(): Promise<void> {
  const fixture = await createApiFixture();
  const config = { ...fixture.config, rate_limit: { anonymous: '', user: '' }, upload_max_bytes: 2 * MIB, auth_failures_per_minute: 1_000_000 };
  const server = await startServer({
    store: fixture.store,
    config,
    host: '127.0.0.1',
    port: 0,
    // what the server logs is an unexpected error (a 500): the parent counts these lines
    log: (message) => process.stderr.write(`SERVER-LOG ${message.split('\n')[0]}\n`),
  });
  // a superuser's browser session, for the web pages' forms (cookie and CSRF token)
  const adminId = (await sqlOn(fixture.store).value<number>("SELECT id FROM users WHERE username = 'admin'"))!;
  const session = await openSession(fixture.store, adminId);
  process.stdout.write(`${JSON.stringify({ url: server.url, tokens: fixture.tokens, session })}\n`);
  process.on('SIGTERM', async () => {
    await server.close();
    await fixture.close();
    process.exit(0);
  });
}

interface Target {
  port: number;
  tokens: { jane: string; admin: string };
  /** The superuser's web session: the cookie token and its CSRF token. */
  session: { token: string; csrf: string };
  child: ChildProcess;
  serverErrors: string[];
}

async function start(): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', self, 'serve'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const serverErrors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (line.startsWith('SERVER-LOG')) serverErrors.push(line.slice(11));
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  const { url, tokens, session } = JSON.parse(first) as { url: string; tokens: Target['tokens']; session: Target['session'] };
  return { port: Number(new URL(url).port), tokens, session, child, serverErrors };
}

// ---- the request model ----

interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  auth: string | null;
  contentType: string | null;
  body: Buffer | null;
  extraHeaders: [string, string][];
}

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];
const VALID: Record<string, string[]> = {
  project: ['hello', 'internal'],
  component: ['app', 'glossary', 'tools', 'docs'],
  language: ['de', 'cs', 'en'],
  id: ['1', '2', '9', '12'],
  username: ['jane', 'admin', 'anonymous'],
  what: ['components', 'translations', 'languages'],
  param: ['1'],
};
const garbageSegment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2F', '%00', '%C3%28', '%FF%FE', 'ü', '0', '-1', '99999999999999999999', '1e309', 'NaN', '%20', ''),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 10 }).map(encodeURIComponent),
  fc.constant('x'.repeat(5000)),
);

function pathArb(template: string): fc.Arbitrary<string> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const values = names.map((name) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(VALID[name] ?? ['1'])) }, { weight: 1, arbitrary: garbageSegment }));
  return fc.tuple(fc.tuple(...values), fc.constantFrom('', '', '', 'extra/', '/', '-', '%2F..%2F')).map(([vals, suffix]) => {
    let i = 0;
    const filled = template.replace(/\{(\w+)\}/g, () => vals[i++]!);
    return suffix === '-' ? filled.slice(0, -1) : filled + suffix;
  });
}

const QUERY_VALUES = fc.oneof(
  fc.constantFrom('0', '-1', '1', '2', 'last', '1000000000000', '99999999999999999999999', '1e309', 'NaN', '', '%', '%FF', '10001', '1.5'),
  fc.constantFrom('state:>=20', 'source:"unterminated', '((((((((((', 'r"(a+)+$"', 'NOT NOT NOT', 'has:', 'position:[1 to', 'id:abc', 'a'.repeat(10_000)),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const queryArb = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom('page', 'page_size', 'q', 'format', 'ordering', 'action', 'language_code'), fc.string({ maxLength: 8 })), QUERY_VALUES),
    {
      maxLength: 4,
    },
  )
  .chain((pairs) =>
    fc
      .boolean()
      .map((raw) => pairs.map(([k, v]) => (raw ? `${k}=${v.replace(/[\s#]/g, '%20')}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&')),
  );

function deep(depth: number, open: string, close: string): Buffer {
  return Buffer.from(open.repeat(depth) + close.repeat(depth));
}

function multipart(boundary: string, parts: { name: string; filename?: string; content: Buffer }[], truncate: boolean): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n\r\n`),
      p.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const all = Buffer.concat(chunks);
  return truncate ? all.subarray(0, Math.floor(all.length / 2)) : all;
}

const FIELDS = ['target', 'state', 'operation', 'source', 'context', 'key', 'value', 'method', 'conflicts', 'language_code', 'lock', 'explanation', 'labels'];
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(['x'], ['x', 'y'], 20, '20', 100, -1, null, true, 'commit', 'push', 'pull', 'reset', 'cleanup', 'file-sync', 'replace', 'de'),
);

type BodyKind = { contentType: string | null; body: Buffer | null };
const bodyArb: fc.Arbitrary<BodyKind> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ contentType: null, body: null }) },
  {
    weight: 5,
    arbitrary: fc
      .dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 4 })
      .map((o) => ({ contentType: 'application/json', body: Buffer.from(JSON.stringify(o)) })),
  },
  { weight: 2, arbitrary: fc.jsonValue().map((v) => ({ contentType: 'application/json', body: Buffer.from(JSON.stringify(v) ?? 'null') })) },
  { weight: 1, arbitrary: fc.constantFrom(1000, 100_000).map((d) => ({ contentType: 'application/json', body: deep(d, '[', ']') })) },
  { weight: 1, arbitrary: fc.constantFrom(1000, 100_000).map((d) => ({ contentType: 'application/json', body: deep(d, '{"a":', '}').subarray(0, -1) })) },
  {
    weight: 1,
    arbitrary: fc.constant({
      contentType: 'application/json',
      body: Buffer.concat([Buffer.from('{"target": ["'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"], "state": 20}')]),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(10 * MIB - 16, 10 * MIB + 1).map((n) => ({ contentType: 'application/json', body: Buffer.alloc(n, 0x20) })) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.dictionary(fc.constantFrom(...FIELDS), fc.string({ maxLength: 20 }), { maxKeys: 4 }), fc.boolean()).map(([o, raw]) => ({
      contentType: 'application/x-www-form-urlencoded',
      body: raw ? Buffer.from([0x25, 0xff, 0x3d, 0x26, 0x3d, 0x3d]) : Buffer.from(new URLSearchParams(o).toString()),
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('b0undary', 'x'.repeat(69), '--'),
        fc.boolean(),
        fc.constantFrom(0, 100, 3 * MIB),
        fc.constantFrom('replace', 'translate', 'x', ''),
      )
      .map(([boundary, truncate, size, method]) => ({
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: multipart(
          boundary,
          [
            { name: 'method', content: Buffer.from(method) },
            { name: 'file', filename: 'app_de.ts', content: size === 0 ? Buffer.from('<?xml version="1.0"?><TS></TS>') : Buffer.alloc(size, 0x41) },
          ],
          truncate,
        ),
      })),
  },
  { weight: 1, arbitrary: fc.constant({ contentType: 'multipart/form-data', body: Buffer.from('no boundary') }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('text/plain', 'application/json; charset=utf-16', 'application/xml', '*/*', '', 'multipart/mixed; boundary=x', 'ü'),
        fc.uint8Array({ maxLength: 64 }),
      )
      .map(([contentType, bytes]) => ({ contentType, body: Buffer.from(bytes) })),
  },
);

function requestArb(tokens: Target['tokens'], session: Target['session']): fc.Arbitrary<FuzzRequest> {
  const authArb = fc.constantFrom<string | null>(
    null,
    null,
    `Token ${tokens.jane}`,
    `Token ${tokens.admin}`,
    `Bearer ${tokens.admin}`,
    'Token ',
    'Token a b',
    'Token wlu_nottherightone',
    'Bearer garbage',
    'Basic Zm9vOmJhcg==',
    `Token ${'x'.repeat(10_000)}`,
    'Token \u00ff\u00fe',
  );
  // the API's routes and the web interface's pages: a new route of either is fuzzed without a change here
  const routePath = fc.constantFrom(...ROUTES.map((r) => r.path), ...WEB_ROUTES.map((r) => r.path)).chain(pathArb);
  const anyPath = fc.oneof(
    { weight: 9, arbitrary: routePath },
    { weight: 1, arbitrary: fc.string({ maxLength: 50 }).map((s) => `/api/${encodeURIComponent(s)}`) },
    { weight: 1, arbitrary: fc.constantFrom('/', '/api', '/api//units//', '/api/../etc/passwd', '/api/%2e%2e/', '/healthz', '/hooks/github/', '/API/') },
  );
  const extraHeaders = fc.subarray<[string, string]>([
    ['Accept', 'text/html'],
    ['Accept', 'application/json;q=0'],
    ['Accept', '*/*'],
    ['Content-Encoding', 'gzip'],
    ['Transfer-Encoding', 'chunked'],
    ['X-Forwarded-For', '1.2.3.4'],
    ['Host', 'evil.example:1'],
    ['Cookie', sessionCookie(session)],
    [CSRF_HEADER, session.csrf],
  ]);
  return fc
    .record({
      method: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.constantFrom('PROPFIND', 'FOO', 'TRACE') }),
      path: anyPath,
      query: queryArb,
      auth: authArb,
      body: bodyArb,
      extraHeaders,
    })
    .map(({ body, ...r }) => ({ ...r, ...body }))
    .map((r) => (keepsSession(r.path) ? { ...r, extraHeaders: r.extraHeaders.filter(([k]) => k !== 'Cookie') } : r));
}

/**
 * Pages the superuser's session is not sent to: signing out would end it, and the profile's form replaces the
 * superuser's API token, which the rest of the campaign uses.
 */
function keepsSession(path: string): boolean {
  return path.startsWith('/accounts/logout/') || path.startsWith('/accounts/profile/');
}

/** The Cookie header of a signed-in browser: its session and CSRF cookies. */
function sessionCookie(session: Target['session']): string {
  return `${SESSION_COOKIE}=${session.token}; ${CSRF_COOKIE}=${session.csrf}`;
}

/** The request as bytes: header values may hold any byte (latin1), the path any percent-escape. */
function encode(r: FuzzRequest): Buffer {
  const lines = [`${r.method} ${r.path}${r.query ? `?${r.query}` : ''} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  if (r.auth !== null) lines.push(`Authorization: ${r.auth}`);
  if (r.contentType !== null) lines.push(`Content-Type: ${r.contentType}`);
  const chunked = r.extraHeaders.some(([k]) => k === 'Transfer-Encoding');
  for (const [k, v] of r.extraHeaders) if (k !== 'Host' && k !== 'Transfer-Encoding') lines.push(`${k}: ${v}`);
  let body = r.body ?? Buffer.alloc(0);
  if (chunked && body.length > 0) {
    lines.push('Transfer-Encoding: chunked');
    body = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  } else if (r.body !== null) {
    lines.push(`Content-Length: ${body.length}`);
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

function describe(r: FuzzRequest): string {
  const body = r.body === null ? '' : ` body=${r.body.length}B ${JSON.stringify(r.body.subarray(0, 60).toString('latin1'))}`;
  return `${r.method} ${r.path.slice(0, 120)}${r.query ? `?${r.query.slice(0, 80)}` : ''} auth=${JSON.stringify(r.auth?.slice(0, 20) ?? null)} type=${JSON.stringify(r.contentType)}${body}`;
}

/** Whether a path is the API's or the webhook receivers' (the JSON error shape), not a web page. */
function isApiOrHook(path: string): boolean {
  return (
    path === '/api' || path.startsWith('/api/') || path.startsWith('/api?') || path === '/hooks' || path.startsWith('/hooks/') || path.startsWith('/healthz')
  );
}

/**
 * A web page's error: an HTML document — or, for a request node's HTTP parser refuses before any routing (raw bytes
 * in the request line), the server's one JSON error shape.
 */
function htmlProblem(answer: RawAnswer, method: string): string | null {
  if (answer.status < 400 || method === 'HEAD' || answer.body.length === 0) return null;
  const type = answer.headers['content-type'] ?? '';
  if (answer.status === 400 && type.startsWith('application/json')) return shapeProblem(answer, method);
  if (!type.startsWith('text/html')) return `page error ${answer.status} is not HTML (${type})`;
  return answer.body.toString('utf8').trimStart().toLowerCase().startsWith('<!doctype html>') ? null : `page error ${answer.status} is not a whole HTML page`;
}

/** The one error shape: {"type", "errors": [{"code", "detail", "attr"}]}. */
function shapeProblem(answer: RawAnswer, method: string): string | null {
  if (answer.status < 400 || method === 'HEAD' || answer.body.length === 0) return null;
  if (!(answer.headers['content-type'] ?? '').startsWith('application/json')) return `error ${answer.status} is not JSON (${answer.headers['content-type']})`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return `error ${answer.status} body does not parse`;
  }
  const b = body as { type?: unknown; errors?: unknown };
  const keys = Object.keys(b as object)
    .sort()
    .join(',');
  if (keys !== 'errors,type') return `error ${answer.status} has keys ${keys}`;
  if (!['validation_error', 'client_error', 'server_error'].includes(b.type as string)) return `error type ${String(b.type)}`;
  if (!Array.isArray(b.errors) || b.errors.length === 0) return 'errors is not a non-empty array';
  for (const e of b.errors as Record<string, unknown>[]) {
    if (Object.keys(e).sort().join(',') !== 'attr,code,detail') return `error entry keys ${Object.keys(e).join(',')}`;
    if (typeof e.code !== 'string' || typeof e.detail !== 'string' || !(e.attr === null || typeof e.attr === 'string')) return 'error entry types';
  }
  return null;
}

async function main(): Promise<number> {
  const campaign = new Campaign('fuzz');
  const runs = envNumber('FUZZ_RUNS', 300);
  const seconds = envNumber('FUZZ_SECONDS', 60);
  const rssLimit = envNumber('FUZZ_RSS_MB', 600) * MIB;
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
  const target = await start();
  let peak = 0;
  const statuses = new Map<number, number>();
  let errorsSeen = 0;
  let lastStatus = 0;

  const check = async (r: FuzzRequest): Promise<string | null> => {
    const answer = await rawRequest(target.port, encode(r));
    campaign.count('requests');
    const rss = rssOf(target.child.pid!) ?? 0;
    peak = Math.max(peak, rss);
    if (target.child.exitCode !== null) return 'the server exited';
    if (target.serverErrors.length > errorsSeen) {
      errorsSeen = target.serverErrors.length;
      return `the server logged an unexpected error: ${target.serverErrors[errorsSeen - 1]}`;
    }
    if (rss > rssLimit) return `server RSS ${Math.round(rss / MIB)} MiB over ${rssLimit / MIB} MiB`;
    // every request gets an answer, also one refused before its body was read (a lingering close reads the rest)
    if (!answer) return 'no answer';
    lastStatus = answer.status;
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.status >= 500) return `status ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`;
    // outside /api/ and /hooks/ are the web interface's pages: their errors are HTML pages (still never a 5xx)
    if (!isApiOrHook(r.path)) return htmlProblem(answer, r.method);
    return shapeProblem(answer, r.method);
  };

  try {
    // 1. every method on every route, as anonymous and as a superuser, with valid parameters
    for (const route of ROUTES) {
      for (const method of [...METHODS, 'PROPFIND']) {
        for (const auth of [null, `Token ${target.tokens.admin}`]) {
          let i = 0;
          const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (VALID[name] ?? ['1'])[i++ % 1]!);
          const r: FuzzRequest = {
            method,
            path,
            query: '',
            auth,
            contentType: method === 'GET' ? null : 'application/json',
            body: method === 'GET' ? null : Buffer.from('{}'),
            extraHeaders: [],
          };
          const problem = await check(r);
          campaign.count('route_method_checks');
          if (problem) campaign.violate(`${problem} — ${describe(r)}`);
        }
      }
    }
    // 1b. every method on every web page, anonymous and signed in (session cookie, CSRF token), with a form body
    for (const route of WEB_ROUTES) {
      for (const method of [...METHODS, 'PROPFIND']) {
        for (const signedIn of [false, true]) {
          if (signedIn && keepsSession(route.path)) continue;
          const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (VALID[name] ?? ['1'])[0]!);
          const r: FuzzRequest = {
            method,
            path,
            query: '',
            auth: null,
            contentType: method === 'GET' ? null : 'application/x-www-form-urlencoded',
            body: method === 'GET' ? null : Buffer.from('target_0=x&state=20&checksum=0'),
            extraHeaders: signedIn
              ? [
                  ['Cookie', sessionCookie(target.session)],
                  [CSRF_HEADER, target.session.csrf],
                ]
              : [],
          };
          const problem = await check(r);
          campaign.count('page_method_checks');
          if (problem) campaign.violate(`${problem} — ${describe(r)}`);
        }
      }
    }
    // 2. the hostile bodies of the issue, each on a write route as a superuser: their statuses are reported
    const admin = `Token ${target.tokens.admin}`;
    const upload = (size: number, truncate: boolean) =>
      multipart(
        'b0undary',
        [
          { name: 'method', content: Buffer.from('translate') },
          { name: 'file', filename: 'app_de.ts', content: Buffer.alloc(size, 0x41) },
        ],
        truncate,
      );
    const cases: [string, string, string, Buffer][] = [
      ['json nested 100,000 arrays', '/api/units/9/', 'application/json', deep(100_000, '[', ']')],
      [
        'json nested 100,000 objects',
        '/api/units/9/',
        'application/json',
        Buffer.concat([deep(100_000, '{"a":', '}').subarray(0, -100_000), Buffer.from('1'), Buffer.from('}'.repeat(100_000))]),
      ],
      ['json 10 MiB + 1', '/api/units/9/', 'application/json', Buffer.alloc(10 * MIB + 1, 0x20)],
      [
        'json invalid UTF-8',
        '/api/units/9/',
        'application/json',
        Buffer.concat([Buffer.from('{"target": ["'), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('"], "state": 20}')]),
      ],
      ['json wrong types', '/api/units/9/', 'application/json', Buffer.from('{"target": {"a": 1}, "state": "twenty"}')],
      ['multipart truncated', '/api/translations/hello/app/de/file/', 'multipart/form-data; boundary=b0undary', upload(1000, true)],
      ['multipart over upload_max_bytes', '/api/translations/hello/app/de/file/', 'multipart/form-data; boundary=b0undary', upload(3 * MIB, false)],
      ['multipart not a TS file', '/api/translations/hello/app/de/file/', 'multipart/form-data; boundary=b0undary', upload(1000, false)],
    ];
    const hostile: string[] = [];
    for (const [name, path, type, body] of cases) {
      const method = path.startsWith('/api/units/') ? 'PATCH' : 'POST';
      const r: FuzzRequest = { method, path, query: '', auth: admin, contentType: type, body, extraHeaders: [] };
      const problem = await check(r);
      campaign.count('hostile_bodies');
      if (problem) campaign.violate(`${name}: ${problem}`);
      hostile.push(`${name} → ${lastStatus}`);
    }
    campaign.note(`hostile bodies: ${hostile.join('; ')}`);
    // 3. random requests, shrunk to a smallest failing one when a property breaks
    let failure: string | null = null;
    const result = await fc.check(
      fc.asyncProperty(requestArb(target.tokens, target.session), async (r) => {
        const problem = await check(r);
        if (problem) failure = `${problem} — ${describe(r)}`;
        return problem === null;
      }),
      { numRuns: runs, seed, interruptAfterTimeLimit: seconds * 1000, markInterruptAsFailure: false, endOnFailure: false },
    );
    campaign.count('random_runs', result.numRuns);
    if (result.failed) {
      campaign.violate(`property failed after ${result.numRuns} runs (seed ${seed}, path ${result.counterexamplePath}), smallest: ${failure}`);
    }
    const health = await rawRequest(target.port, Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    if (health?.status !== 200) campaign.violate(`the server is not healthy after the campaign (${health?.status})`);
  } finally {
    target.child.kill('SIGTERM');
  }
  const byStatus = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}:${n}`)
    .join(',');
  return campaign.finish({ seed, routes: ROUTES.length, pages: WEB_ROUTES.length, peak_rss_mib: Math.round(peak / MIB), statuses: byStatus });
}

if (process.argv[2] === 'serve') await serve();
else process.exitCode = await main();
