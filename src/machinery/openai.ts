// An OpenAI-compatible chat endpoint (OpenAI, a local Ollama or vLLM): `/chat/completions` with the texts of a batch
// as a JSON list, asked back as a JSON list of the same length with the `<x id="N"/>` tags kept.
import { type CallContext, type Engine, EngineError, type EngineSuggestion, type LanguagePair, MACHINE_QUALITY, engineJson } from './engine.js';

export class OpenAiEngine implements Engine {
  readonly id = 'openai' as const;
  readonly name = 'OpenAI';
  readonly batchSize = 20;
  readonly protects = true;
  readonly local = false;

  constructor(private readonly settings: { base_url: string; key?: string; model: string; persona: string; style: string }) {}

  /** A chat model translates any pair it is asked for. */
  async supports(): Promise<boolean> {
    return true;
  }

  private prompt(pair: LanguagePair): string {
    return [
      this.settings.persona,
      `Translate each string of the JSON list the user sends from the language with the code "${pair.source}" into the language with the code "${pair.target}".`,
      'Answer with a JSON list of the translations only, in the same order and of the same length.',
      'Keep every <x id="N"/> tag exactly as written: each stands for text that must not change.',
      this.settings.style,
    ]
      .filter((line) => line !== '')
      .join('\n');
  }

  async translate(texts: readonly string[], pair: LanguagePair, ctx: CallContext): Promise<EngineSuggestion[][]> {
    const base = this.settings.base_url.endsWith('/') ? this.settings.base_url : `${this.settings.base_url}/`;
    const body = (await engineJson(this.name, new URL('chat/completions', base).href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(this.settings.key ? { Authorization: `Bearer ${this.settings.key}` } : {}) },
      body: JSON.stringify({
        model: this.settings.model,
        temperature: 0,
        messages: [
          { role: 'system', content: this.prompt(pair) },
          { role: 'user', content: JSON.stringify(texts) },
        ],
      }),
      signal: ctx.signal,
    })) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new EngineError(this.name, '/chat/completions answered no message');
    // models like to wrap JSON in a Markdown fence
    const json = content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '');
    let list: unknown;
    try {
      list = JSON.parse(json);
    } catch {
      throw new EngineError(this.name, 'the model answered something that is not a JSON list');
    }
    if (!Array.isArray(list) || list.length !== texts.length || list.some((t) => typeof t !== 'string')) {
      throw new EngineError(this.name, `the model answered no list of ${texts.length} strings`);
    }
    return list.map((t, i) => [{ text: t as string, quality: MACHINE_QUALITY, source: texts[i]!, origin: '' }]);
  }
}
