// Apertium APy (`apertium-apy`): its pairs from `/listPairs` (three-letter codes, `spa`, `por_BR`), one text per
// `/translate` call, sent as HTML so that the placeables' tags pass through untouched.
import { loadLanguageData } from '../languages/index.js';
import { type CallContext, type Engine, EngineError, type EngineSuggestion, type LanguagePair, MACHINE_QUALITY, engineJson } from './engine.js';

/** The codes Apertium may use for a tms code, best first: the code itself, then the three-letter alias (`es` → `spa`, `pt_BR` → `por_BR`, `por`). */
export function apertiumCodes(code: string): string[] {
  const [base, ...rest] = code.replace(/-/g, '_').split('_');
  const out = [code.replace(/-/g, '_')];
  for (const [alias, canonical] of loadLanguageData().aliases) {
    if (canonical === base && /^[a-z]{3}$/.test(alias)) {
      if (rest.length > 0) out.push([alias, ...rest].join('_'));
      out.push(alias);
    }
  }
  if (rest.length > 0) out.push(base!);
  return [...new Set(out)];
}

export class ApertiumEngine implements Engine {
  readonly id = 'apertium-apy' as const;
  readonly name = 'Apertium APy';
  readonly batchSize = 1;
  readonly protects = true;
  readonly local = false;
  private pairs: Promise<Set<string>> | undefined;
  private pairsAt = 0;

  constructor(private readonly url: string) {}

  /** The installed pairs (`eng|spa`), asked again after a failure or an hour. */
  private installed(signal: AbortSignal): Promise<Set<string>> {
    if (!this.pairs || Date.now() - this.pairsAt > 3_600_000) {
      this.pairsAt = Date.now();
      this.pairs = engineJson(this.name, new URL('listPairs', this.base()).href, { signal }).then((body) => {
        const data = (body as { responseData?: unknown }).responseData;
        if (!Array.isArray(data)) throw new EngineError(this.name, '/listPairs answered no responseData');
        return new Set(data.map((p: { sourceLanguage?: string; targetLanguage?: string }) => `${p.sourceLanguage}|${p.targetLanguage}`));
      });
      this.pairs.catch(() => {
        this.pairs = undefined;
      });
    }
    return this.pairs;
  }

  private base(): string {
    return this.url.endsWith('/') ? this.url : `${this.url}/`;
  }

  /** The installed Apertium pair for a tms pair, or undefined. */
  private async langpair(pair: LanguagePair, signal: AbortSignal): Promise<string | undefined> {
    const installed = await this.installed(signal);
    for (const s of apertiumCodes(pair.source)) for (const t of apertiumCodes(pair.target)) if (installed.has(`${s}|${t}`)) return `${s}|${t}`;
    return undefined;
  }

  async supports(pair: LanguagePair, signal: AbortSignal): Promise<boolean> {
    return (await this.langpair(pair, signal)) !== undefined;
  }

  async translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]> {
    const langpair = await this.langpair(pair, ctx.signal);
    if (!langpair) return texts.map(() => []);
    const out: EngineSuggestion[][] = [];
    for (const text of texts) {
      const url = new URL('translate', this.base());
      url.searchParams.set('langpair', langpair);
      url.searchParams.set('markUnknown', 'no');
      url.searchParams.set('format', 'html');
      url.searchParams.set('q', text);
      const body = (await engineJson(this.name, url.href, { signal: ctx.signal })) as { responseData?: { translatedText?: unknown } };
      const translated = body.responseData?.translatedText;
      if (typeof translated !== 'string') throw new EngineError(this.name, '/translate answered no translatedText');
      out.push([{ text: translated, quality: MACHINE_QUALITY, source: text, origin: '' }]);
    }
    return out;
  }
}
