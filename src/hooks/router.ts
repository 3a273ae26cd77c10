// The webhook receivers (`/hooks/<service>/`, `/hooks/update/<project>/[<component>/]`): verify, match, record, queue.
import express, { type Request, type Response, type Router } from 'express';
import type { Config } from '../config/config.js';
import { Action } from '../domain/actions.js';
import { now, type Store } from '../store/index.js';
import { createDeliveryLog, type DeliveryLog } from './deliveries.js';
import { type ComponentTarget, matchComponents } from './match.js';
import { decodePayload } from './payload.js';
import type { UpdateQueue } from './queue.js';
import { deliveryId, type Headers, HookPayloadError, isService, parseHook, type Service } from './services.js';
import { checkSignature, type SignatureResult, signatureHeaders } from './signature.js';

export interface HookRouterOptions {
  store: Store;
  /** The configuration in force (read on every request, so a reloaded file applies at once). */
  getConfig: () => Config;
  queue: UpdateQueue;
  /** Recently seen delivery ids (default: a fresh in-memory log of 10,000). */
  deliveries?: DeliveryLog;
  /** Largest accepted body (default `25mb`, GitHub's limit). */
  bodyLimit?: string;
  /** One line per notification that was refused or triggered updates. */
  log?: (line: string) => void;
}

function sendError(res: Response, status: number, code: string, detail: string, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json({ type: status === 400 ? 'validation_error' : 'client_error', errors: [{ code, detail, attr: null }] });
}

function methodNotAllowed(req: Request, res: Response): void {
  sendError(res, 405, 'method_not_allowed', `Method "${req.method}" not allowed.`, { Allow: 'POST' });
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
  await store.recordComponentChanges(config, components, { action: Action.HOOK, timestamp: now(), details });
}

/**
 * The `/hooks/` routes; mount before any JSON body parser (signatures need the raw body):
 * `app.use('/hooks', createHookRouter({ store, getConfig, queue }))`. Requests only verify, match, record change 53
 * and enqueue; the git work happens in the queue.
 */
export function createHookRouter(opts: HookRouterOptions): Router {
  const router = express.Router();
  const deliveries = opts.deliveries ?? createDeliveryLog();
  const log = opts.log ?? (() => {});
  const raw = express.raw({ type: () => true, limit: opts.bodyLimit ?? '25mb' });

  const update = (req: Request, res: Response) => {
    const config = opts.getConfig();
    if (!config.hooks.enabled) return methodNotAllowed(req, res);
    const params = req.params as { project: string; component?: string };
    const project = config.projects.find((p) => p.slug === params.project);
    const components = params.component === undefined ? project?.components : project?.components.filter((c) => c.slug === params.component);
    if (!project || !components || (params.component !== undefined && components.length === 0)) {
      return sendError(res, 404, 'not_found', 'Not found.');
    }
    if (!project.enable_hooks) return methodNotAllowed(req, res);
    for (const c of components) opts.queue.enqueue(project.slug, c.slug);
    log(`hooks: update of ${components.map((c) => `${project.slug}/${c.slug}`).join(', ') || project.slug} requested`);
    res.status(200).json({ status: 'success', message: 'Update triggered' });
  };
  router.all(['/update/:project', '/update/:project/:component'], update);

  router.post('/:service', raw, async (req: Request, res: Response) => {
    const config = opts.getConfig();
    if (!config.hooks.enabled) return methodNotAllowed(req, res);
    const service = String(req.params.service);
    if (!isService(service)) return sendError(res, 404, 'not_found', `Hook ${service} not supported`);
    const headers = req.headers as Headers;
    const body = Buffer.isBuffer(req.body) ? req.body : null;

    // Which configured secrets this delivery is signed with (a body parsed earlier cannot be verified).
    const secrets = configuredSecrets(config);
    const verified = new Set<string>();
    let signature: SignatureResult = 'missing';
    for (const secret of secrets) {
      if (!body) break;
      const result = checkSignature(service, headers, body, secret);
      if (result === 'valid') verified.add(secret);
      else if (result === 'invalid') signature = 'invalid';
    }
    const refuse = () => {
      const why = body ? (signature === 'missing' ? `missing signature (${signatureHeaders(service)})` : 'signature does not match the secret') : 'raw body unavailable';
      log(`hooks: ${service} delivery refused: ${why}`);
      sendError(res, 401, 'authentication_failed', `Webhook authentication failed: ${why}.`, { 'WWW-Authenticate': 'Basic realm="tms webhooks"' });
    };
    if (config.hooks.secret !== '' && verified.size === 0) return refuse();

    let data: unknown;
    let hook: ReturnType<typeof parseHook>;
    try {
      data = body ? decodePayload(body, req.headers['content-type']) : req.body;
      hook = parseHook(service as Service, headers, data);
    } catch (e) {
      if (e instanceof HookPayloadError) return sendError(res, 400, 'invalid', e.message);
      throw e;
    }
    if (hook === null) {
      return res.status(201).json({ message: 'Hook working', status: 'success', match_status: null, updated_components: null });
    }

    const match = matchComponents(config, hook);
    for (const t of match.matched) {
      const secret = t.project.hook_secret || config.hooks.secret;
      if (secret !== '' && !verified.has(secret)) return refuse();
    }
    if (match.matched.length === 0) {
      const status = verified.size > 0 && match.nearMisses.length > 0 ? { ...match.status, near_misses: match.nearMisses } : match.status;
      return res.status(202).json({ message: 'No matching repositories found!', status: 'failure', match_status: status, updated_components: null });
    }

    const names = match.matched.map(slug);
    const id = deliveryId(service, headers, data);
    if (id !== undefined && deliveries.seen(`${service}:${id}`)) {
      log(`hooks: ${service} delivery ${id} repeated; nothing queued`);
      return res.status(200).json({ message: `Delivery ${id} was already received; no update triggered`, status: 'success', match_status: match.status, updated_components: [] });
    }
    await recordNotifications(opts.store, config, match.matched, { ...hook });
    for (const t of match.matched) opts.queue.enqueue(t.project.slug, t.component.slug);
    log(`hooks: ${hook.service_long_name} push to ${hook.branch ?? '?'}: update triggered for ${names.join(', ')}`);
    res.status(200).json({ message: `Update triggered: ${names.join(', ')}`, status: 'success', match_status: match.status, updated_components: names });
  });
  router.all('/:service', methodNotAllowed);
  // a body over the limit or one that cannot be read: the same error shape, never the app's HTML page
  router.use((error: unknown, _req: Request, res: Response, next: express.NextFunction) => {
    const status = (error as { status?: number })?.status;
    if (res.headersSent || typeof status !== 'number' || status < 400 || status >= 500) return next(error);
    sendError(res, status, status === 413 ? 'payload_too_large' : 'invalid', (error as Error).message);
  });
  return router;
}
