// ICU MessageFormat (ARB): the translation must parse, and use the source's arguments with the same kinds.
import { type MessageFormatElement, TYPE, parse } from '@formatjs/icu-messageformat-parser';

/** Argument name → kind ('argument', 'plural', 'select', 'number', …), or null when the text does not parse. */
export function icuArguments(text: string): Map<string, string> | null {
  let ast: MessageFormatElement[];
  try {
    ast = parse(text, { ignoreTag: true, requiresOtherClause: true });
  } catch {
    return null;
  }
  const out = new Map<string, string>();
  const walk = (elements: readonly MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.literal || e.type === TYPE.pound) continue;
      if (e.type === TYPE.tag) {
        walk(e.children);
        continue;
      }
      out.set(e.value, TYPE[e.type]);
      if (e.type === TYPE.plural || e.type === TYPE.select) for (const o of Object.values(e.options)) walk(o.value);
    }
  };
  walk(ast);
  return out;
}

/** True when the translation does not parse, or its arguments differ from the source's (names or kinds). */
export function icuMismatch(source: string, target: string): boolean {
  if (!target) return false;
  if (!source.includes('{') && !target.includes('{') && !target.includes('}')) return false;
  const src = icuArguments(source);
  if (src === null) return false;
  const tgt = icuArguments(target);
  if (tgt === null) return true;
  if (src.size !== tgt.size) return true;
  for (const [name, kind] of src) if (tgt.get(name) !== kind) return true;
  return false;
}
