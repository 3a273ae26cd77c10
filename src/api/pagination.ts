// DRF page-number pagination: page/page_size parsing, "Invalid page." 404s, and the {count, next, previous, results} envelope.

import type { Slice } from '../store/index.js';
import type { RequestContext } from './context.js';
import { notFound } from './errors.js';
import { JsonBytes, jsonString } from './json.js';

/** Standard lists: 50 a page, at most 1000. Large lists (units, component statistics): 100, at most 10000. */
export const PAGE_SIZES = {
  standard: { size: 50, max: 1000 },
  large: { size: 100, max: 10000 },
} as const;
export type PageKind = keyof typeof PAGE_SIZES;

// Python's int(): optional surrounding whitespace and sign, ASCII digits.
const INTEGER = /^\s*[+-]?\d+\s*$/;

function pageSize(ctx: RequestContext, kind: PageKind): number {
  const { size, max } = PAGE_SIZES[kind];
  const raw = ctx.query.find(([key]) => key === 'page_size')?.[1];
  if (raw === undefined || !INTEGER.test(raw)) return size;
  const n = Number.parseInt(raw, 10);
  return n > 0 ? Math.min(n, max) : size;
}

/** The page the request asks for, validated against the list's size (404 "Invalid page." when out of range). */
export function pageOf(ctx: RequestContext, kind: PageKind, count: number): { page: number; size: number; pages: number } & Slice {
  const size = pageSize(ctx, kind);
  const pages = Math.max(1, Math.ceil(count / size));
  const raw = ctx.query.find(([key]) => key === 'page')?.[1] || '1';
  let page: number;
  if (raw === 'last') page = pages;
  else if (INTEGER.test(raw)) page = Number.parseInt(raw, 10);
  else throw notFound('Invalid page.');
  if (page < 1 || page > pages) throw notFound('Invalid page.');
  return { page, size, pages, limit: size, offset: (page - 1) * size };
}

/** `next` / `previous` links: the request URL with `page` replaced (or removed for page 1), parameters sorted. */
export function pageLinks(ctx: RequestContext, page: number, pages: number): { next: string | null; previous: string | null } {
  const others = ctx.query.filter(([key]) => key !== 'page');
  const next = page < pages ? ctx.urls.self(ctx.path, [...others, ['page', String(page + 1)]]) : null;
  const previous = page <= 1 ? null : page === 2 ? ctx.urls.self(ctx.path, others) : ctx.urls.self(ctx.path, [...others, ['page', String(page - 1)]]);
  return { next, previous };
}

/**
 * A whole paginated answer: counts, validates the page, fetches just that slice and writes the envelope.
 * @example await paginate(ctx, 'large', await units.countAll(null, null), (s) => units.all(null, null, s), (u) => unitSerializer.write(u, ctx))
 */
export async function paginate<R>(
  ctx: RequestContext,
  kind: PageKind,
  count: number,
  fetch: (slice: Slice) => Promise<readonly R[]>,
  write: (row: R) => string,
): Promise<Buffer> {
  const { page, pages, limit, offset } = pageOf(ctx, kind, count);
  return envelope(ctx, page, pages, count, count === 0 ? [] : await fetch({ limit, offset }), write);
}

/** Paginates a list already in memory (small lists: projects, components, translations, statistics). */
export function paginateArray<R>(ctx: RequestContext, kind: PageKind, items: readonly R[], write: (row: R) => string): Buffer {
  const { page, pages, limit, offset } = pageOf(ctx, kind, items.length);
  return envelope(ctx, page, pages, items.length, items.slice(offset, offset + limit), write);
}

/** DRF's page envelope around rows written by `write`, as UTF-8 (each record encoded as it is written). */
function envelope<R>(ctx: RequestContext, page: number, pages: number, count: number, rows: readonly R[], write: (row: R) => string): Buffer {
  const { next, previous } = pageLinks(ctx, page, pages);
  const out = new JsonBytes(1024 + rows.length * 1024);
  out.text(`{"count":${count},"next":${next === null ? 'null' : jsonString(next)},"previous":${previous === null ? 'null' : jsonString(previous)},"results":[`);
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) out.text(',');
    out.text(write(rows[i]!));
  }
  out.text(']}');
  return out.bytes();
}
