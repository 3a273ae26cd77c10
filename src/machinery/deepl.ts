// DeepL's API v2: source and target languages from `/languages`, up to 50 texts in one `/translate` call, the key in
// the Authorization header, placeables' tags kept by XML tag handling.
import { type CallContext, type Engine, EngineError, type EngineSuggestion, type LanguagePair, MACHINE_QUALITY, bcp47Variants, engineJson } from './engine.js';

export class DeepLEngine implements Engine {
  readonly id = 'deepl' as const;
  readonly name = 'DeepL';
  readonly batchSize = 50;
  readonly protects = true;
  readonly local = false;
  private languages: Promise<{ source: Set<string>; target: Set<string> }> | undefined;

  constructor(
    private readonly url: string,
    private readonly key: string,
    private readonly formality: string,
  ) {}

  private endpoint(path: string): string {
    return new URL(path, this.url.endsWith('/') ? this.url : `${this.url}/`).href;
  }

  private headers(): Record<string, string> {
    return { Authorization: `DeepL-Auth-Key ${this.key}`, 'Content-Type': 'application/json' };
  }

  private known(signal: AbortSignal): Promise<{ source: Set<string>; target: Set<string> }> {
    const list = async (type: string) => {
      const body = await engineJson(this.name, this.endpoint(`languages?type=${type}`), { headers: this.headers(), signal });
      if (!Array.isArray(body)) throw new EngineError(this.name, '/languages answered no list');
      return new Set(body.map((l: { language?: string }) => String(l.language).toUpperCase()));
    };
    this.languages ??= Promise.all([list('source'), list('target')]).then(([source, target]) => ({ source, target }));
    this.languages.catch(() => {
      this.languages = undefined;
    });
    return this.languages;
  }

  private async codes(pair: LanguagePair, signal: AbortSignal): Promise<[string, string] | undefined> {
    const known = await this.known(signal);
    // DeepL names source languages without region (EN), targets with it where it matters (EN-GB, PT-BR)
    const source = bcp47Variants(pair.source)
      .map((c) => c.toUpperCase())
      .find((c) => known.source.has(c));
    const target = bcp47Variants(pair.target)
      .map((c) => c.toUpperCase())
      .find((c) => known.target.has(c));
    return source && target ? [source, target] : undefined;
  }

  async supports(pair: LanguagePair, signal: AbortSignal): Promise<boolean> {
    return (await this.codes(pair, signal)) !== undefined;
  }

  async translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]> {
    const codes = await this.codes(pair, ctx.signal);
    if (!codes) return texts.map(() => []);
    const body = (await engineJson(this.name, this.endpoint('translate'), {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({
        text: texts,
        source_lang: codes[0],
        target_lang: codes[1],
        tag_handling: 'xml',
        ignore_tags: ['x'],
        ...(this.formality === 'default' ? {} : { formality: this.formality }),
      }),
      signal: ctx.signal,
    })) as { translations?: { text?: unknown }[] };
    const list = body.translations;
    if (!Array.isArray(list) || list.length !== texts.length || list.some((t) => typeof t?.text !== 'string')) {
      throw new EngineError(this.name, `/translate answered no translations list of ${texts.length}`);
    }
    return list.map((t, i) => [{ text: t.text as string, quality: MACHINE_QUALITY, source: texts[i]!, origin: '' }]);
  }
}
