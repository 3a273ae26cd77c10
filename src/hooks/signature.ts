// Webhook authentication: each forge's HMAC signature or shared token, checked against a secret in constant time.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type Headers, type Service, header } from './services.js';

/** `valid`, or why not: no signature header at all, or one that does not verify. */
export type SignatureResult = 'valid' | 'missing' | 'invalid';

/** Equal strings, compared in time independent of where they differ (both hashed to one length first). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

function hmac(secret: string, body: Buffer, encoding: 'hex' | 'base64' = 'hex'): string {
  return createHmac('sha256', secret).update(body).digest(encoding);
}

/** A checker returns undefined when its header is absent. */
type Check = (headers: Headers, body: Buffer, secret: string) => boolean | undefined;

/** `sha256=<hex>` (GitHub, Bitbucket, and Gitea/Forgejo's copy of GitHub's header). */
const prefixedSha256 =
  (name: string): Check =>
  (headers, body, secret) => {
    const value = header(headers, name);
    if (value === undefined) return undefined;
    return safeEqual(value.trim().toLowerCase(), `sha256=${hmac(secret, body)}`);
  };

/** A bare hex HMAC-SHA256 of the body (Gitea, Forgejo, Pagure). */
const bareSha256 =
  (name: string): Check =>
  (headers, body, secret) => {
    const value = header(headers, name);
    if (value === undefined) return undefined;
    return safeEqual(value.trim().toLowerCase(), hmac(secret, body));
  };

/** The secret itself in a header (GitLab's token, Gitee's password mode). */
const token =
  (name: string): Check =>
  (headers, _body, secret) => {
    const value = header(headers, name);
    return value === undefined ? undefined : safeEqual(value, secret);
  };

/** Gitee: the password itself, or its signature mode, base64 HMAC-SHA256 of `timestamp\nsecret` keyed by the secret. */
const giteeToken: Check = (headers, body, secret) => {
  const value = header(headers, 'x-gitee-token');
  if (value === undefined) return undefined;
  const timestamp = header(headers, 'x-gitee-timestamp');
  const signed = timestamp !== undefined && safeEqual(value, hmac(secret, Buffer.from(`${timestamp}\n${secret}`), 'base64'));
  return token('x-gitee-token')(headers, body, secret) || signed;
};

/** Azure DevOps service hooks send HTTP basic credentials; the password is the secret. */
const basicPassword: Check = (headers, _body, secret) => {
  const value = header(headers, 'authorization');
  if (value === undefined || !/^basic /i.test(value)) return undefined;
  const decoded = Buffer.from(value.slice(6).trim(), 'base64').toString('utf8');
  return safeEqual(decoded.slice(decoded.indexOf(':') + 1), secret);
};

const github256 = prefixedSha256('x-hub-signature-256');

const CHECKS: Record<Service, Check[]> = {
  github: [github256],
  gitea: [bareSha256('x-gitea-signature'), bareSha256('x-forgejo-signature'), github256],
  forgejo: [bareSha256('x-forgejo-signature'), bareSha256('x-gitea-signature'), github256],
  gitlab: [token('x-gitlab-token'), github256],
  bitbucket: [prefixedSha256('x-hub-signature'), github256],
  gitee: [giteeToken, github256],
  pagure: [bareSha256('x-pagure-signature-256'), github256],
  azure: [basicPassword, github256],
};

/**
 * Checks a delivery against one secret with the headers its service signs with (for every service, a GitHub-style
 * `X-Hub-Signature-256` is accepted too). `body` must be the raw request body.
 * @example checkSignature('github', req.headers, rawBody, 's3cret') // 'valid' | 'missing' | 'invalid'
 */
export function checkSignature(service: Service, headers: Headers, body: Buffer, secret: string): SignatureResult {
  let present = false;
  for (const check of CHECKS[service]) {
    const result = check(headers, body, secret);
    if (result === true) return 'valid';
    if (result === false) present = true;
  }
  return present ? 'invalid' : 'missing';
}

/** The signature headers a service's sender sets, for 401 messages. */
export function signatureHeaders(service: Service): string {
  const names: Record<Service, string> = {
    github: 'X-Hub-Signature-256',
    gitea: 'X-Gitea-Signature',
    forgejo: 'X-Forgejo-Signature',
    gitlab: 'X-Gitlab-Token',
    bitbucket: 'X-Hub-Signature',
    gitee: 'X-Gitee-Token',
    pagure: 'X-Pagure-Signature-256',
    azure: 'Authorization (basic, the secret as password)',
  };
  return names[service];
}
