// The machinery of a site: its configured engines, each behind a timeout, a bound on calls in flight, a cache per
// (engine, language pair, text), batching to the engine's size and placeable protection; failures kept per engine.
import type { EngineId, EngineLimits, MachineryConfig } from '../config/config.js';
import type { Store } from '../store/store.js';
import { ApertiumEngine } from './apertium.js';
import { DeepLEngine } from './deepl.js';
import { type CallContext, type Engine, EngineError, type EngineSuggestion, type LanguagePair } from './engine.js';
import { LibreTranslateEngine } from './libretranslate.js';
import { ComponentsEngine, MemoryEngine } from './memory-engines.js';
import { OpenAiEngine } from './openai.js';
import { protect, restore } from './placeables.js';

/** The engine ids tms knows, in the order the editor lists them (tms's own data first). */
export const ENGINE_IDS: readonly EngineId[] = ['weblate-translation-memory', 'weblate', 'apertium-apy', 'libretranslate', 'deepl', 'openai'];

/** What one engine said about one text: its suggestions, "not available" for a pair it lacks, or its failure. */
export interface EngineAnswer {
  engine: EngineId;
  name: string;
  status: 'ok' | 'unavailable' | 'error';
  suggestions: EngineSuggestion[];
  /** Why it failed (never holds a secret: URLs without query, the engine's own message). */
  error?: string;
}

const DEFAULT_LIMITS: EngineLimits = { timeout_ms: 10_000, max_in_flight: 4 };

/** Calls in flight bounded: `run` waits for a free slot (or the signal's abort) before calling. */
class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async run<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', stop);
          resolve();
        };
        const stop = () => {
          const i = this.waiting.indexOf(go);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', stop, { once: true });
        this.waiting.push(go);
      });
    } else this.busy++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
}

/** Answers kept per (engine, pair, text): the oldest goes first past `max` entries. */
class AnswerCache {
  private readonly map = new Map<string, EngineSuggestion[]>();
  constructor(private readonly max: number) {}
  get(key: string): EngineSuggestion[] | undefined {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: EngineSuggestion[]): void {
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}

interface Installed {
  engine: Engine;
  limits: EngineLimits;
  slots: Slots;
}

function build(id: EngineId, config: MachineryConfig, store: Store): Engine {
  switch (id) {
    case 'apertium-apy':
      return new ApertiumEngine(config['apertium-apy']!.url);
    case 'libretranslate':
      return new LibreTranslateEngine(config.libretranslate!.url, config.libretranslate!.key);
    case 'deepl':
      return new DeepLEngine(config.deepl!.url, config.deepl!.key, config.deepl!.formality);
    case 'openai':
      return new OpenAiEngine(config.openai!);
    case 'weblate':
      return new ComponentsEngine(store);
    case 'weblate-translation-memory':
      return new MemoryEngine(store);
  }
}

/**
 * The site's engines. `configured()` lists those in the configuration (the editor's panel); tms's own two
 * (`weblate`, `weblate-translation-memory`) can always be used by automatic translation.
 * @example const answer = await machinery.answer('apertium-apy', 'Open file', pair, ctx)
 */
export class Machinery {
  private readonly installed = new Map<EngineId, Installed>();
  private readonly cache = new AnswerCache(20_000);

  constructor(
    private readonly store: Store,
    private readonly config: MachineryConfig,
  ) {}

  /** The configured engines, in ENGINE_IDS order. */
  configured(): EngineId[] {
    return ENGINE_IDS.filter((id) => this.config[id] !== undefined);
  }

  /** Whether automatic translation may use the engine: configured, or one of tms's own. */
  usable(id: string): id is EngineId {
    return (
      (ENGINE_IDS as readonly string[]).includes(id) && (this.config[id as EngineId] !== undefined || id === 'weblate' || id === 'weblate-translation-memory')
    );
  }

  private get(id: EngineId): Installed {
    let i = this.installed.get(id);
    if (!i) {
      const limits = { ...DEFAULT_LIMITS, ...(this.config[id] ?? {}) };
      i = { engine: build(id, this.config, this.store), limits, slots: new Slots(limits.max_in_flight) };
      this.installed.set(id, i);
    }
    return i;
  }

  /** The engine's display name. */
  nameOf(id: EngineId): string {
    return this.get(id).engine.name;
  }

  /** Whether the engine has the pair; EngineError when it cannot be asked (within its timeout). */
  async supports(id: EngineId, pair: LanguagePair, signal?: AbortSignal): Promise<boolean> {
    const { engine, limits } = this.get(id);
    const timeout = AbortSignal.timeout(limits.timeout_ms);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await engine.supports(pair, combined);
    } catch (e) {
      throw asEngineError(engine, e, combined);
    }
  }

  /**
   * Suggestions for every text (one list per text, in order): cached answers first, the rest in batches of the
   * engine's size, each call within the engine's timeout and slots, placeables protected and restored (an answer
   * that broke one is dropped). Throws EngineError when a call fails.
   */
  async translate(
    id: EngineId,
    texts: readonly string[],
    pair: LanguagePair,
    ctx: Omit<CallContext, 'signal'> & { signal?: AbortSignal },
  ): Promise<EngineSuggestion[][]> {
    const { engine, limits, slots } = this.get(id);
    const key = (text: string) => `${id}\u0000${pair.source}\u0000${pair.target}\u0000${text}`;
    const out: (EngineSuggestion[] | undefined)[] = texts.map((t) => (engine.local ? undefined : this.cache.get(key(t))));
    const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
    const fresh = new Map<string, EngineSuggestion[]>();
    for (let start = 0; start < missing.length; start += engine.batchSize) {
      const batch = missing.slice(start, start + engine.batchSize);
      const guarded = batch.map((t) => (engine.protects ? protect(t) : { text: t, placeables: [] }));
      const timeout = AbortSignal.timeout(limits.timeout_ms);
      const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
      let answers: EngineSuggestion[][];
      try {
        answers = await slots.run(signal, () =>
          engine.translate(
            guarded.map((g) => g.text),
            pair,
            { ...ctx, signal },
          ),
        );
      } catch (e) {
        throw asEngineError(engine, e, signal);
      }
      batch.forEach((text, i) => {
        const suggestions = (answers[i] ?? []).flatMap((s) => {
          if (!engine.protects) return [s];
          const restored = restore(s.text, guarded[i]!.placeables);
          return restored === null || restored.trim() === '' ? [] : [{ ...s, text: restored, source: text }];
        });
        fresh.set(text, suggestions);
        if (!engine.local) this.cache.set(key(text), suggestions);
      });
    }
    return texts.map((t, i) => out[i] ?? fresh.get(t) ?? []);
  }

  /** One engine's answer for one text, never throwing: its suggestions, "unavailable" for a pair it lacks, or its error. */
  async answer(id: EngineId, text: string, pair: LanguagePair, ctx: Omit<CallContext, 'signal'> & { signal?: AbortSignal }): Promise<EngineAnswer> {
    const name = this.nameOf(id);
    try {
      if (!(await this.supports(id, pair, ctx.signal))) return { engine: id, name, status: 'unavailable', suggestions: [] };
      const [suggestions] = await this.translate(id, [text], pair, ctx);
      return { engine: id, name, status: 'ok', suggestions: suggestions ?? [] };
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      return { engine: id, name, status: 'error', suggestions: [], error: e.data.reason };
    }
  }
}

function asEngineError(engine: Engine, e: unknown, signal: AbortSignal): unknown {
  if (e instanceof EngineError) return e;
  if (signal.aborted) return new EngineError(engine.name, 'no answer in time');
  return e;
}
