// tms's own data as engines: the translation memory (`weblate-translation-memory`, fuzzy, scored by similarity) and
// the same string translated in other components (`weblate`, exact source, scored 100).
import { MEMORY_THRESHOLD } from '../domain/similarity.js';
import { lookupMemory, sameSourceMatches } from '../store/memory.repo.js';
import type { Store } from '../store/store.js';
import type { CallContext, Engine, EngineSuggestion, LanguagePair } from './engine.js';

export class MemoryEngine implements Engine {
  readonly id = 'weblate-translation-memory' as const;
  readonly name = 'tms translation memory';
  readonly batchSize = 1;
  readonly protects = false;
  readonly local = true;
  constructor(private readonly store: Store) {}

  async supports(): Promise<boolean> {
    return true;
  }

  async translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]> {
    const v = { projects: ctx.projects, userId: ctx.userId };
    return this.store.read(async (tx) => {
      const out: EngineSuggestion[][] = [];
      for (const text of texts) {
        const matches = await lookupMemory(tx, text, pair.sourceId, pair.targetId, v, {
          excludeUnit: ctx.unitId,
          limit: 5,
          threshold: Math.max(MEMORY_THRESHOLD, ctx.threshold ?? 0),
        });
        out.push(matches.map((m) => ({ text: m.target, quality: m.similarity, source: m.source, origin: m.origin })));
      }
      return out;
    });
  }
}

export class ComponentsEngine implements Engine {
  readonly id = 'weblate' as const;
  readonly name = 'tms (other components)';
  readonly batchSize = 1;
  readonly protects = false;
  readonly local = true;
  constructor(private readonly store: Store) {}

  async supports(): Promise<boolean> {
    return true;
  }

  async translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]> {
    const v = { projects: ctx.projects, userId: ctx.userId };
    return this.store.read(async (tx) => {
      const out: EngineSuggestion[][] = [];
      for (const text of texts) {
        const matches = await sameSourceMatches(tx, text, pair.sourceId, pair.targetId, v, ctx.componentId ?? null, 5);
        out.push(matches.map((m) => ({ text: m.target, quality: 100, source: text, origin: m.origin })));
      }
      return out;
    });
  }
}
