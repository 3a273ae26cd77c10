// tms's own data as engines: the translation memory (`weblate-translation-memory`, fuzzy, scored by similarity) and
// the same string translated in other components (`weblate`, exact source, scored 100).
import { MEMORY_THRESHOLD } from '../domain/similarity.js';
import { lookupMemory, sameSourceMatches } from '../store/memory.repo.js';
import type { Store } from '../store/store.js';
import type { Tx } from '../store/store.js';
import type { CallContext, Engine, EngineSuggestion, LanguagePair } from './engine.js';

/** The site's own data as an engine: always available, one text a call, its suggestions read in one unit of work. */
abstract class StoreEngine {
  readonly batchSize = 1;
  readonly protects = false;
  readonly local = true;
  constructor(private readonly store: Store) {}

  async supports(): Promise<boolean> {
    return true;
  }

  async translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]> {
    return this.store.read(async (tx) => {
      const out: EngineSuggestion[][] = [];
      for (const text of texts) out.push(await this.suggest(tx, text, pair, ctx));
      return out;
    });
  }

  /** The suggestions for one text. */
  protected abstract suggest(tx: Tx, text: string, pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[]>;
}

export class MemoryEngine extends StoreEngine implements Engine {
  readonly id = 'weblate-translation-memory' as const;
  readonly name = 'tms translation memory';

  protected async suggest(tx: Tx, text: string, pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[]> {
    const matches = await lookupMemory(
      tx,
      text,
      pair.sourceId,
      pair.targetId,
      { projects: ctx.projects, userId: ctx.userId },
      {
        excludeUnit: ctx.unitId,
        limit: 5,
        threshold: Math.max(MEMORY_THRESHOLD, ctx.threshold ?? 0),
      },
    );
    return matches.map((m) => ({ text: m.target, quality: m.similarity, source: m.source, origin: m.origin }));
  }
}

export class ComponentsEngine extends StoreEngine implements Engine {
  readonly id = 'weblate' as const;
  readonly name = 'tms (other components)';

  protected async suggest(tx: Tx, text: string, pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[]> {
    const v = { projects: ctx.projects, userId: ctx.userId };
    const matches = await sameSourceMatches(tx, text, pair.sourceId, pair.targetId, v, ctx.componentId ?? null, 5);
    return matches.map((m) => ({ text: m.target, quality: 100, source: text, origin: m.origin }));
  }
}
