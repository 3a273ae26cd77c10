// VcsError and the one place where isomorphic-git, git and network failures become its six kinds.
import { TmsError } from '../domain/errors.js';

/** What went wrong talking to a repository, in words the sync and the API can act on. */
export type VcsErrorKind = 'auth' | 'not-found' | 'conflict' | 'rejected' | 'network' | 'timeout';

export interface VcsErrorData {
  kind: VcsErrorKind;
  /** The vcs function that failed: `clone`, `fetch`, `push`, `merge`, `rebase` … */
  operation: string;
  /** The remote, credential-free; absent for purely local operations. */
  url?: string;
  /** Files in conflict, when known. */
  paths?: string[];
  /** The underlying error's code and message (credentials scrubbed), for logs. */
  detail?: string;
  /** Kind `timeout`: how long the remote was silent when the operation gave up (`remote_timeout_s`). */
  waitedMs?: number;
}

/** A failed vcs operation; `data.kind` says which of six things happened, `data.url` never holds credentials. */
export class VcsError extends TmsError<VcsErrorData> {
  constructor(message: string, data: VcsErrorData) {
    super(data.url ? `${message} (${data.url})` : message, data);
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

interface Context {
  operation: string;
  url?: string;
  /** Strings that must never appear in a message (passwords, tokens). */
  secrets?: (string | undefined)[];
}

/** How long a remote may stay silent when the caller does not say (the configuration's `remote_timeout_s`). */
export const DEFAULT_REMOTE_TIMEOUT_MS = 600_000;

/**
 * The error of an operation that gave up on a remote silent for `waitedMs` (nothing sent, nothing received).
 * @example silentRemote('fetch', 'https://git.example.com/app.git', 600_000).message
 * // 'fetch: the remote sent nothing for 600 s; gave up (remote_timeout_s) (https://git.example.com/app.git)'
 */
export function silentRemote(operation: string, url: string, waitedMs: number): VcsError {
  return new VcsError(`${operation}: the remote sent nothing for ${waitedMs / 1000} s; gave up (remote_timeout_s)`, {
    kind: 'timeout',
    operation,
    url,
    waitedMs,
  });
}

/**
 * Turns whatever an operation threw into a VcsError when it is one of the known kinds;
 * anything else (a bug, a full disk) is returned unchanged so it is not disguised.
 */
export function toVcsError(err: unknown, ctx: Context): unknown {
  if (err instanceof VcsError) return err;
  if (!(err instanceof Error)) return err;
  const e = err as Error & { code?: string; data?: Record<string, unknown>; cause?: unknown };
  const code = e.code ?? '';
  const kind = kindOf(e);
  if (!kind) return err;
  const detail = scrub(`${code || e.name}: ${e.message}`, ctx.secrets);
  const paths = kind === 'conflict' ? (e.data?.filepaths as string[] | undefined) : undefined;
  return new VcsError(`${ctx.operation}: ${describe(kind, e)}`, {
    kind,
    operation: ctx.operation,
    ...(ctx.url ? { url: ctx.url } : {}),
    ...(paths ? { paths } : {}),
    detail,
  });
}

function kindOf(e: Error & { code?: string; data?: Record<string, unknown>; cause?: unknown }): VcsErrorKind | null {
  switch (e.code) {
    case 'HttpError': {
      const status = Number(e.data?.statusCode);
      if (status === 401 || status === 403) return 'auth';
      if (status === 404 || status === 410) return 'not-found';
      return 'network';
    }
    case 'UserCanceledError':
      return 'auth';
    case 'NotFoundError':
      return 'not-found';
    case 'PushRejectedError':
    case 'GitPushError':
      return 'rejected';
    case 'MergeConflictError':
    case 'MergeNotSupportedError':
    case 'CheckoutConflictError':
    case 'FastForwardError':
      return 'conflict';
    case 'SmartHttpError':
      return 'network';
  }
  if (e.code && NETWORK_CODES.has(e.code)) return 'network';
  const cause = e.cause as { code?: string } | undefined;
  if (cause?.code && NETWORK_CODES.has(cause.code)) return 'network';
  return null;
}

function describe(kind: VcsErrorKind, e: Error & { code?: string; data?: Record<string, unknown> }): string {
  switch (kind) {
    case 'auth':
      return 'authentication failed';
    case 'not-found':
      return e.code === 'NotFoundError' ? `not found: ${String(e.data?.what ?? '')}` : 'repository not found';
    case 'rejected':
      return e.code === 'PushRejectedError'
        ? 'push rejected: the remote branch has commits that are not here (fetch, then merge or rebase)'
        : `push rejected by the remote: ${String(e.data?.prettyDetails ?? '').trim()}`;
    case 'conflict':
      return e.code === 'CheckoutConflictError'
        ? 'local changes would be overwritten'
        : e.code === 'MergeNotSupportedError'
          ? 'cannot merge automatically'
          : 'conflict';
    case 'network':
      return `cannot reach the remote (${e.code ?? e.name})`;
    case 'timeout':
      return 'the remote stopped answering';
  }
}

/** Replaces each secret in `text` by `***`. */
export function scrub(text: string, secrets: (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    out = out.split(secret).join('***');
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join('***');
  }
  return out;
}
