// LibreTranslate: its languages from `/languages`, every text of a batch in one `/translate` call (`q` as a list),
// sent as HTML so that the placeables' tags pass through.
import { type CallContext, type Engine, EngineError, type EngineSuggestion, type LanguagePair, MACHINE_QUALITY, bcp47Variants, engineJson } from './engine.js';

export class LibreTranslateEngine implements Engine {
  readonly id = 'libretranslate' as const;
  readonly name = 'LibreTranslate';
  readonly batchSize = 25;
  readonly protects = true;
  readonly local = false;
  private languages: Promise<Map<string, Set<string>>> | undefined;

  constructor(
    private readonly url: string,
    private readonly key: string | undefined,
  ) {}

  private endpoint(path: string): string {
    return new URL(path, this.url.endsWith('/') ? this.url : `${this.url}/`).href;
  }

  /** Source code → the target codes it translates into. */
  private known(signal: AbortSignal): Promise<Map<string, Set<string>>> {
    this.languages ??= engineJson(this.name, this.endpoint('languages'), { signal }).then((body) => {
      if (!Array.isArray(body)) throw new EngineError(this.name, '/languages answered no list');
      return new Map(body.map((l: { code?: string; targets?: string[] }) => [String(l.code), new Set(l.targets ?? [])]));
    });
    this.languages.catch(() => {
      this.languages = undefined;
    });
    return this.languages;
  }

  private async codes(pair: LanguagePair, signal: AbortSignal): Promise<[string, string] | undefined> {
    const known = await this.known(signal);
    for (const s of bcp47Variants(pair.source)) {
      const targets = known.get(s);
      if (targets) for (const t of bcp47Variants(pair.target)) if (targets.has(t)) return [s, t];
    }
    return undefined;
  }

  async supports(pair: LanguagePair, signal: AbortSignal): Promise<boolean> {
    return (await this.codes(pair, signal)) !== undefined;
  }

  async translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]> {
    const codes = await this.codes(pair, ctx.signal);
    if (!codes) return texts.map(() => []);
    const body = (await engineJson(this.name, this.endpoint('translate'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ q: texts, source: codes[0], target: codes[1], format: 'html', ...(this.key ? { api_key: this.key } : {}) }),
      signal: ctx.signal,
    })) as { translatedText?: unknown };
    const translated = body.translatedText;
    if (!Array.isArray(translated) || translated.length !== texts.length || translated.some((t) => typeof t !== 'string')) {
      throw new EngineError(this.name, `/translate answered no translatedText list of ${texts.length}`);
    }
    return translated.map((t, i) => [{ text: t as string, quality: MACHINE_QUALITY, source: texts[i]!, origin: '' }]);
  }
}
