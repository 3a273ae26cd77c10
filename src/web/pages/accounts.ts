// Signing in and out, and the profile page with the languages the user translates and the API token: sessions over the store, passwords checked with scrypt.
import { createSignInLimiter } from '../../api/auth-limit.js';
import { queryValue } from '../../api/context.js';
import { validationError } from '../../api/errors.js';
import { clientAddress } from '../../api/forward.js';
import { requestUsers } from '../../api/request-log.js';
import { CSRF_COOKIE, SESSION_COOKIE, SESSION_DAYS, cookie, cookiesOf, openSession, secureSite } from '../../api/session.js';
import { decoyHash, verifyPassword } from '../../auth/password.js';
import type { Language } from '../../store/index.js';
import { deleteSession, findCredentials } from '../../store/sessions.repo.js';
import { rotateToken, setUserLanguages } from '../../store/users.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, languagesOfVisitor, signedIn, toSignIn } from '../context.js';
import { html } from '../html.js';
import { page } from './layout.js';

/**
 * Where to go after signing in: a page of this site, else `/`. `next` is resolved as a browser resolves a Location
 * (WHATWG URL: tabs and line breaks dropped, backslashes read as slashes), so `/\t/evil.example` or `/\\evil.example`
 * is another site; of a same-origin result only the path, query and fragment go back, in URL-serialized form.
 * @example localTarget('/projects/hello/?q=x', 'http://127.0.0.1:8000') // '/projects/hello/?q=x'
 */
export function localTarget(next: string | undefined, site: string): string {
  if (!next) return '/';
  let base: URL;
  let url: URL;
  try {
    base = new URL(site);
    url = new URL(next, base);
  } catch {
    return '/';
  }
  if (url.origin !== base.origin) return '/';
  const target = url.pathname + url.search + url.hash;
  // dot segments can leave two leading slashes (`/a/..//evil.example`): as a Location that is another site
  return target.startsWith('//') ? '/' : target;
}

function nextOf(ctx: WebContext, next: string | undefined): string {
  return localTarget(next, ctx.urls.siteBase);
}

// Failed sign-ins: 5 a minute from one address for one username, or 10 from one address, then that address waits a
// minute (429); a username failing from everywhere is slowed, never locked; each failure also waits.
const limits = createSignInLimiter();
const FAILURE_DELAY_MS = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function loginForm(ctx: WebContext, opts: { next: string; error?: string; username?: string; status?: number }): WebAnswer {
  const body = html`<div class="narrow">
    <h1>Sign in</h1>
    ${opts.error && html`<p role="alert" class="error">${opts.error}</p>`}
    <form method="post" action="/accounts/login/" class="login">
      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
      <input type="hidden" name="next" value=${opts.next} />
      <div class="field">
        <label for="username">Username</label>
        <input id="username" name="username" autocomplete="username" required value=${opts.username ?? ''} autofocus />
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
      </div>
      <button type="submit" class="primary">Sign in</button>
    </form>
    <p class="hint">An administrator sets passwords with <code>tms user password NAME</code>.</p>
  </div>`;
  return { status: opts.status, html: page(ctx, { title: 'Sign in', body }) };
}

/** `GET /accounts/login/` */
export function loginPage(ctx: WebContext): WebAnswer {
  const next = nextOf(ctx, queryValue(ctx, 'next'));
  if (signedIn(ctx)) return { redirect: next, status: 302 };
  return loginForm(ctx, { next });
}

/** `POST /accounts/login/`: checks the password, opens a session, sets its cookie (HttpOnly, SameSite=Lax, Secure on https). */
export async function login(ctx: WebContext): Promise<WebAnswer> {
  const next = nextOf(ctx, formValue(ctx, 'next'));
  const username = (formValue(ctx, 'username') ?? '').trim().slice(0, 150);
  const password = (formValue(ctx, 'password') ?? '').slice(0, 1024);
  const address = clientAddress(ctx.req);
  const wait = limits.blocked(address, username);
  if (wait !== null) {
    return {
      ...loginForm(ctx, { next, username, error: `Too many failed sign-ins: try again in ${wait} seconds.`, status: 429 }),
      headers: { 'Retry-After': String(wait) },
    } as WebAnswer;
  }
  const slowed = limits.delay(username);
  if (slowed > 0) await sleep(slowed);
  const credentials = username ? await ctx.services.store.read((tx) => findCredentials(tx, username)) : undefined;
  // A missing user or password costs the same as a wrong one.
  const ok = await verifyPassword(password, credentials?.passwordHash ?? (await decoyHash()));
  // only the right password learns that the account exists and is disabled
  if (ok && credentials?.passwordHash && !credentials.user.is_active) {
    return loginForm(ctx, { next, username, error: 'This account is disabled: an administrator can enable it again.', status: 403 });
  }
  if (!ok || !credentials?.passwordHash) {
    limits.failed(address, username);
    await sleep(FAILURE_DELAY_MS);
    return loginForm(ctx, { next, username, error: 'The username or password is not correct.', status: 400 });
  }
  // a sign-in replaces the session the browser had (whoever it was): an old cookie never outlives it
  const previous = cookiesOf(ctx.req).get(SESSION_COOKIE);
  if (previous && previous.length <= 200) await ctx.services.store.write((tx) => deleteSession(tx, previous));
  const { token, csrf } = await openSession(ctx.services.store, credentials.user.id);
  requestUsers.set(ctx.req, credentials.user.username);
  const secure = secureSite(ctx.services.config.site_url, ctx.req);
  ctx.cookies.push(cookie(SESSION_COOKIE, token, { secure, maxAgeSeconds: SESSION_DAYS * 86_400 }));
  ctx.cookies.push(cookie(CSRF_COOKIE, csrf, { secure }));
  return { redirect: next };
}

/** `GET /accounts/logout/`: a page with the sign-out button (signing out is a POST, so no link can do it). */
export function logoutPage(ctx: WebContext): WebAnswer {
  if (!signedIn(ctx)) return { redirect: '/', status: 302 };
  const body = html`<div class="narrow"><h1>Sign out</h1>
    <form method="post" action="/accounts/logout/">
      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
      <button type="submit" class="primary">Sign out</button>
    </form></div>`;
  return { html: page(ctx, { title: 'Sign out', body }) };
}

/** `POST /accounts/logout/`: ends the session and clears its cookie. */
export async function logout(ctx: WebContext): Promise<WebAnswer> {
  const token = ctx.sessionToken;
  if (token) await ctx.services.store.write((tx) => deleteSession(tx, token));
  const secure = secureSite(ctx.services.config.site_url, ctx.req);
  ctx.cookies.push(cookie(SESSION_COOKIE, '', { secure, maxAgeSeconds: 0 }));
  return { redirect: '/' };
}

/** The languages a user may choose: those the site translates into (visible to them), and those chosen already; by name. */
function offeredLanguages(ctx: WebContext, chosen: ReadonlySet<number>): Language[] {
  const ids = new Set(chosen);
  for (const t of ctx.catalog.translations) if (!t.isSource && ctx.access.translation(t)) ids.add(t.languageId);
  return [...ids].flatMap((id) => ctx.catalog.languages.get(id) ?? []).sort((a, b) => a.name.localeCompare(b.name));
}

async function profileBody(ctx: WebContext, token?: string, saved = false) {
  const u = ctx.user;
  const chosen = await languagesOfVisitor(ctx);
  const offered = offeredLanguages(ctx, chosen);
  return html`<h1>Your profile</h1>
    <dl class="facts">
      <dt>Username</dt><dd>${u.username}</dd>
      <dt>Full name</dt><dd>${u.full_name}</dd>
      <dt>E-mail</dt><dd>${u.email || '—'}</dd>
      <dt>Role</dt><dd>${u.is_superuser ? 'Administrator' : 'User'}</dd>
    </dl>
    <section aria-labelledby="languages-h" id="languages">
      <h2 id="languages-h">Translated languages</h2>
      ${saved && html`<p class="notice" role="status">Your languages are saved.</p>`}
      <form method="post" action="/accounts/profile/">
        <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
        <input type="hidden" name="save_languages" value="1" />
        <fieldset class="field label-choice languages-choice">
          <legend>The languages you translate: the dashboard lists their strings that need work, and project pages show them first</legend>
          ${offered.length === 0 && html`<p>No translations on this site yet.</p>`}
          ${offered.map((l) => html`<label class="check"><input type="checkbox" name="languages" value=${l.code} checked=${chosen.has(l.id)} /> ${l.name}</label>`)}
        </fieldset>
        <div class="buttons"><button type="submit" class="primary">Save languages</button></div>
      </form>
    </section>
    <section aria-labelledby="token-h">
      <h2 id="token-h">API token</h2>
      ${
        token
          ? html`<p role="status">Your new API token (shown once; the previous one no longer works):</p>
              <p><label for="token">API token</label> <input id="token" class="token" readonly value=${token} size="50" /></p>`
          : html`<p>tms keeps only a hash of your API token, so it cannot show it again: generate a new one to see it. The old one stops working at once.</p>`
      }
      <form method="post" action="/accounts/profile/">
        <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
        <button type="submit" name="regenerate" value="1">Regenerate API token</button>
      </form>
      <p class="hint">Use it with <code>wlc --url ${ctx.urls.apiBase} --key TOKEN</code> or <code>Authorization: Token TOKEN</code>.</p>
    </section>`;
}

/** `GET /accounts/profile/` (signed in only). */
export async function profilePage(ctx: WebContext): Promise<WebAnswer> {
  if (!signedIn(ctx)) return toSignIn(ctx.path);
  return {
    html: page(ctx, { title: 'Your profile', crumbs: [{ label: 'Profile' }], body: await profileBody(ctx, undefined, queryValue(ctx, 'saved') === '1') }),
  };
}

/**
 * `POST /accounts/profile/`: saves the languages the user translates (`save_languages`, `languages`: codes of languages
 * the site has; 400 for another), or regenerates the API token and shows it once.
 */
export async function editProfile(ctx: WebContext): Promise<WebAnswer> {
  if (!signedIn(ctx)) return toSignIn(ctx.path);
  if (formValue(ctx, 'save_languages') !== undefined) {
    const ids = (ctx.body?.form.get('languages') ?? []).map((code) => {
      const language = ctx.catalog.languagesByCode.get(code);
      if (!language) throw validationError('languages', `No language "${code}" on this site.`);
      return language.id;
    });
    await ctx.services.store.write((tx) => setUserLanguages(tx, ctx.user.id, ids));
    return { redirect: '/accounts/profile/?saved=1#languages', status: 303 };
  }
  const token = await ctx.services.store.write((tx) => rotateToken(tx, ctx.user.username));
  return { html: page(ctx, { title: 'Your profile', crumbs: [{ label: 'Profile' }], body: await profileBody(ctx, token) }) };
}
