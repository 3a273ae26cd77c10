// What every machine translation engine is: a language check and a batch translation over its own protocol, with the
// errors an engine call can end in.
import type { EngineId } from '../config/config.js';
import { TmsError } from '../domain/errors.js';

/** One suggestion of an engine for one text: the translation, how good the engine says it is (0–100), where it came from. */
export interface EngineSuggestion {
  text: string;
  /** 0–100: a memory's similarity, or the engine's fixed quality. */
  quality: number;
  /** The source text the suggestion translates (a memory's match may differ from the text asked about). */
  source: string;
  /** Where it came from (a memory's `project/component`), else empty. */
  origin: string;
}

/** The language pair of a call, as tms codes (`es`, `pt_BR`), with their ids for the engines that read the store. */
export interface LanguagePair {
  source: string;
  target: string;
  sourceId: number;
  targetId: number;
}

/** Who asks (what a memory engine may show them) and which string (its own translation is no suggestion). */
export interface CallContext {
  /** The projects whose strings may be shown; null: every project. */
  projects: readonly number[] | null;
  userId: number | null;
  /** The string translated (its own unit is left out of memory matches). */
  unitId?: number;
  /** The component of that string (the `weblate` engine looks at the others). */
  componentId?: number;
  /** The least quality wanted (automatic translation's threshold): a memory need not look for matches below it. */
  threshold?: number;
  signal: AbortSignal;
}

/**
 * A machine translation engine (Weblate's ids: `apertium-apy`, `libretranslate`, `deepl`, `openai`, `weblate`,
 * `weblate-translation-memory`). `translate` answers one list of suggestions per text, in order; `supports` tells
 * whether a pair exists (a missing pair is "not available for this language", not an error).
 * @example const [[best]] = await engine.translate(['Open file'], pair, ctx)
 */
export interface Engine {
  readonly id: EngineId;
  readonly name: string;
  /** Texts sent in one call at most (1: one text a call). */
  readonly batchSize: number;
  /** Whether placeables are replaced by tags before the texts are sent (machine translation; not the memories). */
  readonly protects: boolean;
  /** Whether the engine answers from tms's own data: its answers follow the database, so they are not cached. */
  readonly local: boolean;
  supports(pair: LanguagePair, signal: AbortSignal): Promise<boolean>;
  translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]>;
}

/** The quality a machine translation engine's answer is given: below an exact memory match, above most fuzzy ones. */
export const MACHINE_QUALITY = 90;

/** A tms code as engines with BCP 47 codes may know it, most specific first: `pt_BR` → `pt-BR`, `pt`. */
export function bcp47Variants(code: string): string[] {
  const tag = code.replace(/_/g, '-');
  const base = tag.split('-')[0]!;
  return tag === base ? [tag] : [tag, base];
}

/** An engine call that failed: unreachable, timed out, refused, or answered something that is not its protocol. */
export class EngineError extends TmsError<{ engine: string; reason: string }> {
  constructor(engine: string, reason: string) {
    super(`${engine}: ${reason}`, { engine, reason });
  }
}

/**
 * A JSON answer of an engine's HTTP API; EngineError for a failed connection, a timeout, a status other than 2xx
 * (with the engine's own message when it sends one) or a body that is not JSON. The URL is named without its query
 * (keys travel in headers or bodies, never in what is reported).
 */
export async function engineJson(engine: string, url: string, init: RequestInit & { signal: AbortSignal }): Promise<unknown> {
  let res: Response;
  const where = url.split('?', 1)[0];
  try {
    res = await fetch(url, init);
  } catch (e) {
    const reason = init.signal.aborted
      ? 'no answer in time'
      : `cannot reach ${where} (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`;
    throw new EngineError(engine, reason);
  }
  let body: unknown;
  const text = await res.text().catch(() => '');
  try {
    body = JSON.parse(text);
  } catch {
    if (res.ok) throw new EngineError(engine, `${where} answered something that is not JSON`);
  }
  if (!res.ok) {
    const said = body as { message?: unknown; error?: unknown; explanation?: unknown } | undefined;
    const message = said?.explanation ?? said?.message ?? (typeof said?.error === 'string' ? said.error : (said?.error as { message?: unknown })?.message);
    throw new EngineError(engine, `${where} answered ${res.status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ''}`);
  }
  return body;
}
