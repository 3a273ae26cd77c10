// The web interface's request handler: pages for browsers beside the API, on the API's services, permissions and sessions.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Access } from '../api/access.js';
import type { AppServices } from '../api/app.js';
import { originOf } from '../api/app.js';
import { MAX_BODY_BYTES, RequestAbortedError, isMultipart, parseBody, readBody } from '../api/body.js';
import { headerReader } from '../api/context.js';
import { notFound, toApiError } from '../api/errors.js';
import { requestUsers } from '../api/request-log.js';
import { createRouter } from '../api/router.js';
import { CSRF_COOKIE, CSRF_FIELD, CSRF_HEADER, cookie, cookiesOf, csrfMatches, randomToken, secureSite, sentFromSite, sessionOf } from '../api/session.js';
import { Urls } from '../api/urls.js';
import type { Config } from '../config/config.js';
import type { Store } from '../store/index.js';
import type { Assets } from './assets.js';
import type { WebAnswer, WebContext } from './context.js';
import { toSignIn } from './context.js';
import { errorPage } from './pages/errors.js';
import type { Frame } from './pages/layout.js';
import { WEB_ROUTES } from './routes.js';

export interface WebAppOptions {
  store: Store;
  services: AppServices;
  getConfig: () => Config;
  assets: Assets;
  log: (message: string) => void;
}

const HTML_TYPE = 'text/html; charset=utf-8';

/** What an error page is framed with: the request's context once built, or before it (no route) the signed-in user's frame. */
interface ErrorFrame {
  ctx?: WebContext;
  frame?: Frame;
}

/**
 * The web pages as a node:http handler: every path that is not the API's or the webhooks'.
 * @example const web = createWebApp({ store, services, getConfig, assets: loadAssets(), log })
 */
export function createWebApp(options: WebAppOptions) {
  const { store, services, assets } = options;
  const router = createRouter(WEB_ROUTES);

  function send(req: IncomingMessage, res: ServerResponse, answer: WebAnswer, cookies: string[]): void {
    if (cookies.length > 0) res.setHeader('Set-Cookie', cookies);
    // Pages show what one user may see: never cached by others, never framed (nosniff: the server's, on every answer).
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    if ('redirect' in answer) {
      res.writeHead(answer.status ?? 303, { Location: answer.redirect, 'Content-Length': 0 }).end();
      return;
    }
    const [body, type] = 'html' in answer ? [Buffer.from(answer.html), HTML_TYPE] : [answer.bytes, answer.contentType];
    res.writeHead(answer.status ?? 200, { ...answer.headers, 'Content-Type': type, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, cookies: string[], holder: ErrorFrame): Promise<void> {
    const raw = req.url ?? '/';
    const cut = raw.indexOf('?');
    const path = cut < 0 ? raw : raw.slice(0, cut);
    if (assets.serve(req, res, path)) return;
    const match = router.match(path);
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    if (!match) {
      if (!path.endsWith('/') && method === 'GET' && router.match(`${path}/`)) {
        send(req, res, { redirect: `${path}/${cut < 0 ? '' : raw.slice(cut)}`, status: 301 }, cookies);
        return;
      }
      // the page not found shows who is signed in, as every page does
      const session = await sessionOf(store, req);
      if (session?.user.is_active) holder.frame = { assets, csrf: session.csrf, path, user: session.user };
      throw notFound();
    }
    const handler = match.route.methods[method as 'GET' | 'POST'];
    await services.refresh();
    const session = await sessionOf(store, req);
    const user = session?.user.is_active ? session.user : await services.anonymous();
    if (!user) throw new Error('the store has no anonymous user');
    requestUsers.set(req, user.is_anonymous ? '' : user.username);
    const config = options.getConfig();
    const catalog = await services.catalog();
    let csrf = session?.user.is_active ? session.csrf : cookiesOf(req).get(CSRF_COOKIE);
    if (!csrf || !/^[\w-]{20,100}$/.test(csrf)) {
      csrf = randomToken();
      cookies.push(cookie(CSRF_COOKIE, csrf, { secure: secureSite(config.site_url, req) }));
    }
    const query = cut < 0 ? [] : [...new URLSearchParams(raw.slice(cut + 1))];
    const ctx: WebContext = {
      services,
      catalog,
      urls: new Urls(originOf(req), config.site_url, null),
      user,
      access: Access.of(await services.principal(user), catalog),
      params: match.params,
      query,
      path,
      memo: new Map(),
      header: headerReader(req),
      req,
      assets,
      csrf,
      sessionToken: session?.user.is_active ? session.token : undefined,
      cookies,
    };
    holder.ctx = ctx;
    if (!handler) {
      send(req, res, errorPage(ctx, 405, 'This page does not take that method.'), cookies);
      return;
    }
    if (method === 'POST') {
      const type = req.headers['content-type'];
      const bytes = await readBody(req, isMultipart(type) ? config.upload_max_bytes : MAX_BODY_BYTES);
      ctx.body = await parseBody(bytes, type, 'form');
      const sent = ctx.body.form.get(CSRF_FIELD)?.[0] ?? (req.headers[CSRF_HEADER] as string | undefined);
      if (!csrfMatches(sent, csrf)) {
        send(req, res, errorPage(ctx, 403, 'The form is missing its security token (CSRF) or it is stale: reload the page and try again.'), cookies);
        return;
      }
      if (!sentFromSite(req, config.site_url, ctx.urls.origin)) {
        send(req, res, errorPage(ctx, 403, 'The form was sent from another site: open this site and send it from there.'), cookies);
        return;
      }
      if (match.route.signedIn && user.is_anonymous) {
        send(req, res, toSignIn(path), cookies);
        return;
      }
    }
    send(req, res, await handler(ctx), cookies);
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const cookies: string[] = [];
    const holder: ErrorFrame = {};
    try {
      await handle(req, res, cookies, holder);
    } catch (e) {
      if (e instanceof RequestAbortedError || res.destroyed || req.socket.destroyed) {
        res.destroy();
        return;
      }
      const known = toApiError(e);
      if (!known) options.log(`tms: ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const status = known?.status ?? 500;
      if (status === 401 && holder.ctx) {
        send(req, res, toSignIn(holder.ctx.path), cookies);
        return;
      }
      // what the API says of a known error (the database unavailable …) the page says too; a defect stays unexplained
      const detail = known && status !== 404 ? known.message : undefined;
      const frame = holder.ctx ?? holder.frame ?? { assets, csrf: '', path: (req.url ?? '/').split('?', 1)[0]! };
      send(req, res, errorPage(frame, status, detail, known?.headers), cookies);
    }
  };
}
