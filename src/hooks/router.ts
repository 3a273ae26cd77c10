// The webhook receivers (`/hooks/<service>/`, `/hooks/update/<project>/[<component>/]`) on plain node:http: verify, match, record, queue.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../api/body.js';
import { ApiError, methodNotAllowed as notAllowed, notFound } from '../api/errors.js';
import { type RequestHandler, answerError, sendError, sendJson } from '../api/respond.js';
import { repositoryOwner } from '../component/resolve.js';
import type { Config } from '../config/config.js';
import { Action } from '../domain/actions.js';
import { type Store, now } from '../store/index.js';
import { recordComponentChanges } from '../store/projects.repo.js';
import { type DeliveryLog, createDeliveryLog } from './deliveries.js';
import { type ComponentTarget, matchComponents } from './match.js';
import { decodePayload } from './payload.js';
import type { UpdateQueue } from './queue.js';
import { type Headers, type Service, deliveryId, isService, parseHook } from './services.js';
import { type SignatureResult, checkSignature, signatureHeaders } from './signature.js';

export interface HookHandlerOptions {
  store: Store;
  /** The configuration in force (read on every request, so a reloaded file applies at once). */
  getConfig: () => Config;
  queue: UpdateQueue;
  /** Recently seen delivery ids (default: a fresh in-memory log of 10,000). */
  deliveries?: DeliveryLog;
  /** Largest accepted body in bytes (default 25 MiB, GitHub's limit). */
  bodyLimit?: number;
  /** One line per notification that was refused or triggered updates. */
  log?: (line: string) => void;
}

/** An error of the receivers: 400s are validation errors (as the API's), the rest client errors. */
function hookError(status: number, code: string, detail: string, headers: Record<string, string> = {}): ApiError {
  return new ApiError(status, [{ code, detail, attr: null }], headers, status === 400);
}

function methodNotAllowed(req: IncomingMessage): ApiError {
  return notAllowed(req.method ?? '', 'POST');
}

function slug(t: ComponentTarget): string {
  return `${t.project.slug}/${t.component.slug}`;
}

/** The secrets configured anywhere: the global `hooks.secret` and every project's `hook_secret`. */
function configuredSecrets(config: Config): string[] {
  return [...new Set([config.hooks.secret, ...config.projects.map((p) => p.hook_secret)].filter((s) => s !== ''))];
}

/** Records change 53 for each component (the store learns components added since it last saw the config). */
async function recordNotifications(store: Store, config: Config, targets: ComponentTarget[], details: Record<string, unknown>): Promise<void> {
  const components = targets.map((t) => ({ project: t.project.slug, component: t.component.slug }));
  await store.write((tx) => recordComponentChanges(tx, config, components, { action: Action.HOOK, timestamp: now(), details }));
}

/**
 * The `/hooks/` receivers as a node:http handler (the server sends every request under /hooks/ to it). Requests only
 * verify, match, record change 53 and enqueue; the git work happens in the queue. Signatures are checked on the raw
 * body, read here.
 * @example startServer({ store, config, host, port, hooks: createHookHandler({ store, getConfig, queue }) })
 */
export function createHookHandler(opts: HookHandlerOptions): RequestHandler {
  const deliveries = opts.deliveries ?? createDeliveryLog();
  const log = opts.log ?? (() => {});
  const bodyLimit = opts.bodyLimit ?? 25 * 1024 * 1024;

  /**
   * `/hooks/update/<project>/[<component>/]` (Weblate's old update hook), POST only. With a secret (the project's
   * `hook_secret`, else `hooks.secret`) the request must carry it, signed as GitHub signs (`X-Hub-Signature-256`)
   * or plainly as GitLab sends it (`X-Gitlab-Token`); otherwise 401. A private project is answered exactly like a
   * missing one to a caller that did not prove the secret, so the hook does not reveal which private projects exist.
   */
  const update = async (req: IncomingMessage, res: ServerResponse, params: { project: string; component?: string }) => {
    const config = opts.getConfig();
    if (!config.hooks.enabled || req.method !== 'POST') throw methodNotAllowed(req);
    const body = await readBody(req, bodyLimit);
    const proves = (secret: string) =>
      secret !== '' && (['github', 'gitlab'] as const).some((s) => checkSignature(s, req.headers as Headers, body, secret) === 'valid');
    const unauthorized = () =>
      hookError(401, 'authentication_failed', 'Webhook authentication failed: the configured secret is required (X-Hub-Signature-256 or X-Gitlab-Token).', {
        'WWW-Authenticate': 'Basic realm="tms webhooks"',
      });
    const found = config.projects.find((p) => p.slug === params.project);
    const secret = found?.hook_secret || config.hooks.secret;
    const proved = proves(secret);
    // What a caller without the secret may know of: public and protected projects (Weblate's access_control 0 and 1).
    const project = found && (found.access_control <= 1 || proved) ? found : undefined;
    if (!project) {
      if (config.hooks.secret !== '' && !proves(config.hooks.secret)) throw unauthorized();
      throw notFound();
    }
    if (secret !== '' && !proved) throw unauthorized();
    const components = params.component === undefined ? project.components : project.components.filter((c) => c.slug === params.component);
    if (params.component !== undefined && components.length === 0) throw notFound();
    if (!project.enable_hooks) throw methodNotAllowed(req);
    await deliveries.accept(
      undefined,
      components.map((c) => ({ project: project.slug, component: c.slug })),
    );
    // components sharing a working copy (weblate:// links) are updated together, by one update of the first of them
    const queued = new Set<string>();
    for (const c of components) {
      const owner = repositoryOwner(config, project, c);
      const key = `${owner.project.slug}/${owner.component.slug}`;
      if (queued.has(key)) continue;
      queued.add(key);
      opts.queue.enqueue(project.slug, c.slug);
    }
    log(`hooks: update of ${components.map((c) => `${project.slug}/${c.slug}`).join(', ') || project.slug} requested`);
    sendJson(res, req, 200, { status: 'success', message: 'Update triggered' });
  };

  const receive = async (req: IncomingMessage, res: ServerResponse, service: string) => {
    const config = opts.getConfig();
    if (!config.hooks.enabled) throw methodNotAllowed(req);
    if (!isService(service)) throw hookError(404, 'not_found', `Hook ${service} not supported`);
    const headers = req.headers as Headers;
    const body = await readBody(req, bodyLimit);

    // Which configured secrets this delivery is signed with.
    const secrets = configuredSecrets(config);
    const verified = new Set<string>();
    let signature: SignatureResult = 'missing';
    for (const secret of secrets) {
      const result = checkSignature(service, headers, body, secret);
      if (result === 'valid') verified.add(secret);
      else if (result === 'invalid') signature = 'invalid';
    }
    const refuse = () => {
      const why = signature === 'missing' ? `missing signature (${signatureHeaders(service)})` : 'signature does not match the secret';
      log(`hooks: ${service} delivery refused: ${why}`);
      return hookError(401, 'authentication_failed', `Webhook authentication failed: ${why}.`, { 'WWW-Authenticate': 'Basic realm="tms webhooks"' });
    };
    if (config.hooks.secret !== '' && verified.size === 0) throw refuse();

    // A payload that is not the shape its service sends is a HookPayloadError: a 400 through the one mapping.
    const data = decodePayload(body, req.headers['content-type']);
    const hook = parseHook(service as Service, headers, data);
    if (hook === null) {
      sendJson(res, req, 201, { message: 'Hook working', status: 'success', match_status: null, updated_components: null });
      return;
    }

    const match = matchComponents(config, hook);
    for (const t of match.matched) {
      const secret = t.project.hook_secret || config.hooks.secret;
      if (secret !== '' && !verified.has(secret)) throw refuse();
    }
    if (match.matched.length === 0) {
      const status = verified.size > 0 && match.nearMisses.length > 0 ? { ...match.status, near_misses: match.nearMisses } : match.status;
      sendJson(res, req, 202, { message: 'No matching repositories found!', status: 'failure', match_status: status, updated_components: null });
      return;
    }

    const names = match.matched.map(slug);
    const id = deliveryId(service, headers, data);
    const updates = match.matched.map((t) => ({ project: t.project.slug, component: t.component.slug }));
    if (!(await deliveries.accept(id === undefined ? undefined : `${service}:${id}`, updates))) {
      log(`hooks: ${service} delivery ${id} repeated; nothing queued`);
      sendJson(res, req, 200, {
        message: `Delivery ${id} was already received; no update triggered`,
        status: 'success',
        match_status: match.status,
        updated_components: [],
      });
      return;
    }
    await recordNotifications(opts.store, config, match.matched, { ...hook });
    for (const t of match.matched) opts.queue.enqueue(t.project.slug, t.component.slug);
    log(`hooks: ${hook.service_long_name} push to ${hook.branch ?? '?'}: update triggered for ${names.join(', ')}`);
    sendJson(res, req, 200, { message: `Update triggered: ${names.join(', ')}`, status: 'success', match_status: match.status, updated_components: names });
  };

  return async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0]!;
      const segments = path
        .split('/')
        .slice(2)
        .filter((p) => p !== '')
        .map(decodeURIComponent);
      const [first, project, component] = segments;
      if (first === 'update' && project !== undefined && segments.length <= 3) {
        await update(req, res, { project, ...(component === undefined ? {} : { component }) });
      } else if (first !== undefined && segments.length === 1) {
        if (req.method !== 'POST') throw methodNotAllowed(req);
        await receive(req, res, first);
      } else {
        throw notFound();
      }
    } catch (e) {
      answerError(res, req, e, (message) => log(`hooks: ${message}`));
    }
  };
}
