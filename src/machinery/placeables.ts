// Placeables kept away from machine translation: format strings, markup and entities become numbered `<x id="N"/>`
// tags before a text goes to an engine, and come back after; a translation that lost or duplicated one is refused.

/**
 * What an engine must not change: printf (`%s`, `%1$s`, `%(name)s`, `%%`), Qt (`%1`, `%L1`), brace placeholders
 * (`{name}`, `{0}`, `{{name}}`), markup tags and character entities.
 */
const PLACEABLE =
  /%(?:\([\w.-]+\))?(?:\d+\$)?[-+ 0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGcrsSp@%]|%L?\d+|\{\{[^{}]*\}\}|\{[\w.:$-]*\}|<\/?[A-Za-z][^<>]*>|&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);/g;

/** A text as an engine receives it (markup-safe: `&`, `<`, `>` escaped) and the placeables its tags stand for. */
export interface Protected {
  text: string;
  placeables: string[];
}

const markupEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const markupUnescape = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|#39|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", amp: '&' })[e] ?? '');

/**
 * Replaces each placeable by `<x id="N"/>` and escapes the rest as markup text.
 * @example protect('Delete %s?') // { text: 'Delete <x id="0"/>?', placeables: ['%s'] }
 */
export function protect(source: string): Protected {
  const placeables: string[] = [];
  let text = '';
  let last = 0;
  for (const m of source.matchAll(PLACEABLE)) {
    text += `${markupEscape(source.slice(last, m.index))}<x id="${placeables.length}"/>`;
    placeables.push(m[0]);
    last = m.index + m[0].length;
  }
  return { text: text + markupEscape(source.slice(last)), placeables };
}

const TAG = /<x\s+id\s*=\s*["']?(\d+)["']?\s*\/?>(?:\s*<\/x>)?/g;

/**
 * The engine's answer with the placeables put back and the markup escapes undone; null when a placeable is missing,
 * repeated or unknown (the engine broke it: the answer is not offered).
 * @example restore('Borrar <x id="0"/>?', ['%s']) // 'Borrar %s?'
 */
export function restore(translated: string, placeables: readonly string[]): string | null {
  const seen = new Set<number>();
  let broken = false;
  let out = '';
  let last = 0;
  for (const m of translated.matchAll(TAG)) {
    const n = Number(m[1]);
    if (n >= placeables.length || seen.has(n)) broken = true;
    seen.add(n);
    out += `${markupUnescape(translated.slice(last, m.index))}${placeables[n] ?? ''}`;
    last = m.index + m[0].length;
  }
  if (broken || seen.size !== placeables.length) return null;
  return out + markupUnescape(translated.slice(last));
}
