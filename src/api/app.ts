// The API's request handler on plain node:http: one dispatcher over the route table (auth, methods, HEAD/OPTIONS, format, errors) in front of the handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Principal } from '../auth/check.js';
import { type GitRunner, workingCopyDir } from '../component/handle.js';
import { type Config, type ProjectConfig, projectMachinery } from '../config/config.js';
import { Machinery, Tasks } from '../machinery/index.js';
import { anonymousAccount, memberships } from '../store/accounts.repo.js';
import { loadCatalog, refreshCatalog } from '../store/catalog.repo.js';
import type { AccountRow, Catalog, Store } from '../store/index.js';
import { Access, toPrincipal } from './access.js';
import type { Answer } from './answer.js';
import { createAuthLimiter } from './auth-limit.js';
import { authenticate } from './auth.js';
import { MAX_BODY_BYTES, RequestAbortedError, isMultipart, parseBody, readBody } from './body.js';
import { type ApiServices, type RequestContext, headerReader } from './context.js';
import { ApiError, methodNotAllowed, notAcceptable, notAuthenticated, notFound, permissionDenied, throttled } from './errors.js';
import { clientAddress, forwardedOrigin } from './forward.js';
import { toJson } from './json.js';
import { createRateLimiter, parseRate } from './rate-limit.js';
import { requestUsers } from './request-log.js';
import { JSON_TYPE, type RequestHandler, answerError, send } from './respond.js';
import { ResponseCache } from './response-cache.js';
import type { Route, WriteMethod } from './route.js';
import { createRouter } from './router.js';
import { ROUTES } from './routes.js';
import { CSRF_HEADER, csrfMatches, sentFromSite, sessionOf } from './session.js';
import { Urls } from './urls.js';
import type { WriteContext } from './write.js';

export interface AppOptions {
  store: Store;
  config: Config;
  /** The configuration in force, when it can change while serving (a watched file); default: `config`. */
  getConfig?: () => Config;
  /** Where unexpected errors are reported (never to the client). Default: stderr. */
  log?: (message: string) => void;
  /** Version shown in the OpenAPI document. */
  version?: string;
  /** The services to use (shared with the web pages); built from `store` and the configuration when absent. */
  services?: AppServices;
  /**
   * Bytes of encoded JSON answers kept for identical requests (same user, origin and URL) until the
   * database changes; 0 disables. Default 64 MiB.
   */
  cacheBytes?: number;
}

export type AppServices = ApiServices & {
  refresh(): Promise<boolean>;
  anonymous(): Promise<AccountRow | undefined>;
  /** Calls `listener` whenever a `refresh()` (whoever calls it: the API, the web pages) finds the database changed. */
  onChange(listener: () => void): void;
};

/** Services with snapshots that follow the database: `refresh()` once per request. */
export function createServices(store: Store, getConfig: () => Config, apiVersion: string, git?: GitRunner): AppServices {
  let seen = '';
  let catalog: Promise<Catalog> | undefined;
  /** The snapshot before the database changed: the next one is refreshed from it (by what changed) rather than read whole. */
  let previous: Promise<Catalog> | undefined;
  let anonymous: Promise<AccountRow | undefined> | undefined;
  const principals = new Map<number, Promise<Principal>>();
  /**
   * The principal last built for each user, by its content: one built again after a change of the data and equal to
   * it is that same object, so that the visibility derived for it carries over (Access).
   */
  const lastPrincipals = new Map<number, { key: string; principal: Principal }>();
  const listeners: (() => void)[] = [];
  // per project (and '' for the site): rebuilt when the configuration's objects behind it change
  const machineries = new Map<string, { site: Config['machinery']; project: ProjectConfig | undefined; machinery: Machinery }>();
  return {
    store,
    git,
    tasks: new Tasks(),
    machinery(projectSlug = '') {
      const config = getConfig();
      const project = projectSlug === '' ? undefined : config.projects.find((p) => p.slug === projectSlug);
      let kept = machineries.get(projectSlug);
      if (kept?.site !== config.machinery || kept.project !== project) {
        kept = { site: config.machinery, project, machinery: new Machinery(store, projectMachinery(config, project)) };
        machineries.set(projectSlug, kept);
      }
      return kept.machinery;
    },
    get config() {
      return getConfig();
    },
    version: apiVersion,
    /** Drops the snapshots when the database changed; true if it did. */
    async refresh() {
      const current = await store.dataVersion();
      if (current === seen) return false;
      seen = current;
      if (catalog) previous = catalog;
      catalog = undefined;
      anonymous = undefined;
      principals.clear();
      for (const listener of listeners) listener();
      return true;
    },
    onChange(listener) {
      listeners.push(listener);
    },
    catalog() {
      if (!catalog) {
        const before = previous;
        previous = undefined;
        catalog = before
          ? before.then(
              (p) => store.read((tx) => refreshCatalog(tx, p)),
              () => store.read(loadCatalog),
            )
          : store.read(loadCatalog);
      }
      return catalog;
    },
    anonymous() {
      anonymous ??= store.read(anonymousAccount);
      return anonymous;
    },
    principal(user) {
      let principal = principals.get(user.id);
      if (!principal) {
        principal = store
          .read((tx) => memberships(tx, user.id))
          .then((rows) => {
            const built = toPrincipal(user, rows);
            const key = JSON.stringify(built);
            const last = lastPrincipals.get(user.id);
            if (last?.key === key) return last.principal;
            lastPrincipals.set(user.id, { key, principal: built });
            return built;
          });
        principals.set(user.id, principal);
      }
      return principal;
    },
    workingCopy: (project, component) => workingCopyDir(getConfig().repos_dir, project, component),
  };
}

const HOST = /^[A-Za-z0-9.\-_:[\]]+$/;

/** Where the request came in: its Host header (when sane), else the socket's own address; https on TLS sockets only. */
export function originOf(req: IncomingMessage): string {
  const through = forwardedOrigin(req);
  if (through) return through;
  const protocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const host = req.headers.host;
  if (host && HOST.test(host)) return `${protocol}://${host}`;
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `${protocol}://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

/** Whether an Accept header admits JSON (absent, `*\/*`, `application/*` or `application/json` with q > 0). */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    if (type !== '*/*' && type !== 'application/*' && type !== JSON_TYPE) continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/**
 * The API as a node:http request handler. Every answer is JSON (errors too), every route ends in `/`.
 * @example http.createServer(createApp({ store: await openStore('tms.sqlite'), config })).listen(8000)
 */
export function createApp(options: AppOptions): RequestHandler {
  const { store } = options;
  const getConfig = options.getConfig ?? (() => options.config);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const services = options.services ?? createServices(store, getConfig, options.version ?? '0.1.0');
  const cache = new ResponseCache(options.cacheBytes ?? 64 * 1024 * 1024);
  // whoever notices a change (these handlers, the web pages sharing the services) empties the cache
  services.onChange(() => cache.clear());
  const limiter = createAuthLimiter(getConfig().auth_failures_per_minute);
  const anonymousRate = parseRate(getConfig().rate_limit?.anonymous ?? '');
  const userRate = parseRate(getConfig().rate_limit?.user ?? '');
  const anonymousLimiter = anonymousRate && createRateLimiter(anonymousRate);
  const userLimiter = userRate && createRateLimiter(userRate);

  /** Weblate's throttles: anonymous callers by address (under both rates, as in Weblate), users by id. */
  function throttle(res: ServerResponse, user: AccountRow, address: string): void {
    const checks = user.is_anonymous
      ? [anonymousLimiter?.check(`anon:${address}`), userLimiter?.check(`ip:${address}`)]
      : [userLimiter?.check(`user:${user.id}`)];
    let shown: ReturnType<NonNullable<typeof userLimiter>['check']> | undefined;
    for (const check of checks) {
      if (!check) continue;
      if (!check.allowed) {
        for (const [name, value] of Object.entries(check.headers)) res.setHeader(name, value);
        throw throttled(check.retryAfter);
      }
      shown ??= check;
    }
    if (shown) for (const [name, value] of Object.entries(shown.headers)) res.setHeader(name, value);
  }
  const router = createRouter(ROUTES);
  const allow = new Map<Route, string>(ROUTES.map((r) => [r, r.allow.join(', ')]));

  /** The request context of a request, over the catalog as the database is now. */
  async function contextOf(
    req: IncomingMessage,
    user: AccountRow,
    params: Record<string, string>,
    query: RequestContext['query'],
    path: string,
    format: string | null,
  ): Promise<RequestContext> {
    const catalog = await services.catalog();
    return {
      services,
      catalog,
      urls: new Urls(originOf(req), getConfig().site_url, format),
      user,
      access: Access.of(await services.principal(user), catalog),
      params,
      query,
      path,
      memo: new Map(),
      header: headerReader(req),
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const cut = raw.indexOf('?');
    const path = cut < 0 ? raw : raw.slice(0, cut);
    const rawQuery = cut < 0 ? '' : raw.slice(cut + 1);
    res.setHeader('Vary', 'Accept');
    const match = router.match(path);
    if (!match) {
      // Django's APPEND_SLASH: the slash-less form of a served path redirects.
      if (!path.endsWith('/') && (req.method === 'GET' || req.method === 'HEAD') && router.match(`${path}/`)) {
        res.statusCode = 301;
        res.setHeader('Location', `${path}/${cut < 0 ? '' : `?${rawQuery}`}`);
        res.setHeader('Content-Length', 0);
        res.end();
        return;
      }
      throw notFound();
    }
    const { route, params } = match;
    res.setHeader('Allow', allow.get(route)!);
    await services.refresh();
    const address = clientAddress(req);
    const wait = limiter.blocked(address);
    if (wait !== null) throw throttled(wait);
    let user: AccountRow;
    const method = req.method;
    // Weblate's API takes the browser's session too (without a token header); its writes need the CSRF header.
    const session = req.headers.authorization ? undefined : await sessionOf(store, req);
    if (session?.user.is_active) {
      user = session.user;
      if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
        if (!csrfMatches(req.headers[CSRF_HEADER] as string | undefined, session.csrf)) throw permissionDenied('CSRF Failed: CSRF token missing or incorrect.');
        if (!sentFromSite(req, getConfig().site_url, originOf(req)))
          throw permissionDenied('CSRF Failed: Origin checking failed: the request was sent from another site.');
      }
    } else {
      try {
        user = await authenticate(store, req.headers.authorization, services.anonymous);
      } catch (e) {
        // Guessing tokens: every failed authentication counts against the address.
        if (e instanceof ApiError && e.status === 401) limiter.failed(address);
        throw e;
      }
    }
    requestUsers.set(req, user.is_anonymous ? '' : user.username);
    throttle(res, user, address);
    if (method === 'OPTIONS') {
      const body = {
        name: route.name,
        description: route.description,
        renders: [JSON_TYPE],
        parses: [JSON_TYPE, 'application/x-www-form-urlencoded', 'multipart/form-data'],
      };
      send(res, req, 200, JSON_TYPE, toJson(body));
      return;
    }
    const query = rawQuery === '' ? [] : [...new URLSearchParams(rawQuery)];
    let format: string | null = null;
    if (!route.ownFormat || (method !== 'GET' && method !== 'HEAD')) {
      const requested = query.find(([key]) => key === 'format')?.[1];
      if (requested !== undefined && requested !== '') {
        if (requested !== 'api' && requested !== 'json') throw notFound();
        format = requested;
      } else if (!acceptsJson(req.headers.accept)) {
        throw notAcceptable();
      }
    }
    if (method !== 'GET' && method !== 'HEAD') {
      // DRF checks authentication before the method: an anonymous write on a writable path is a 401.
      if (route.allow.includes(method as Route['allow'][number]) && user.is_anonymous) throw notAuthenticated();
      const operation = route.write?.[method as WriteMethod];
      if (!operation) throw methodNotAllowed(method ?? '', allow.get(route)!);
      const type = req.headers['content-type'];
      const bytes = await readBody(req, isMultipart(type) ? getConfig().upload_max_bytes : MAX_BODY_BYTES);
      const body = await parseBody(bytes, type, operation.body ?? 'any');
      const ctx: WriteContext = {
        ...(await contextOf(req, user, params, query, path, format)),
        body,
        reload: async () => {
          await services.refresh();
          return contextOf(req, user, params, query, path, format);
        },
      };
      let result: Answer;
      try {
        result = await operation.handler(ctx);
      } finally {
        // Whatever the write changed: no answer cached before it may be served after it.
        await services.refresh();
      }
      reply(res, req, result);
      return;
    }
    const origin = originOf(req);
    // An answer depends on the URL, the origin its links use, and what the user may see; nothing else.
    const cacheKey = route.response.kind === 'file' || route.live ? '' : `${user.id} ${origin} ${raw}`;
    const cached = cacheKey && cache.get(cacheKey);
    if (cached) {
      send(res, req, 200, JSON_TYPE, cached);
      return;
    }
    const result = await route.get(await contextOf(req, user, params, query, path, format));
    if ('json' in result) {
      // encoded once, for the cache and the answer
      const body = typeof result.json === 'string' ? Buffer.from(result.json) : result.json;
      if (cacheKey && (result.status ?? 200) === 200 && !result.headers) cache.set(cacheKey, body);
      send(res, req, result.status ?? 200, JSON_TYPE, body, result.headers);
      return;
    }
    reply(res, req, result);
  }

  function reply(res: ServerResponse, req: IncomingMessage, result: Answer): void {
    if ('json' in result)
      send(res, req, result.status ?? 200, JSON_TYPE, typeof result.json === 'string' ? Buffer.from(result.json) : result.json, result.headers);
    else send(res, req, result.status ?? 200, result.contentType, result.bytes, result.headers);
  }

  return async (req, res) => {
    try {
      await handle(req, res);
    } catch (e) {
      answerError(res, req, e, log);
    }
  };
}
