// Weblate's translation flags from XML attributes (maxwidth, size-unit, font, weblate-flags), as TBX and XLIFF carry them.

/** Reads one attribute of an element, or null when it is absent. */
export type AttributeReader = (name: string) => string | null | undefined;

function quoted(value: string): string {
  return /[\s,:"\\]/.test(value) ? `"${value.replaceAll('"', '\\"')}"` : value;
}

/**
 * Weblate's `Flags().merge(element)` over each element in turn (a later element's flag replaces an earlier one of
 * the same name), plus `extra` flags, formatted sorted and comma-separated.
 * @example xmlFlags([(n) => ({ maxwidth: '10', 'size-unit': 'char' })[n]], ['xml-text']) // 'max-length:10, xml-text'
 */
export function xmlFlags(elements: readonly AttributeReader[], extra: readonly string[] = []): string {
  // most elements carry none of the attributes: no map, no sort
  if (elements.every((get) => !get('maxwidth') && !get('font') && !get('weblate-flags'))) {
    return extra.length <= 1 ? (extra[0] ?? '') : [...new Set(extra)].sort().join(', ');
  }
  const flags = new Map<string, string>();
  const set = (name: string, value?: string) => {
    flags.set(name, value === undefined ? name : `${name}:${quoted(value)}`);
  };
  for (const get of elements) {
    const maxwidth = get('maxwidth');
    const unit = get('size-unit') ?? undefined;
    if (maxwidth) {
      if (unit === undefined || unit === 'pixel' || unit === 'point') set('max-size', maxwidth);
      else if (unit === 'byte' || unit === 'char') set('max-length', maxwidth);
    }
    const font = get('font');
    if (font) {
      const [family, size, weight] = font.split(';');
      set('font-family', family!.trim().replaceAll(' ', '_'));
      if (size !== undefined) set('font-size', size.trim());
      if (weight !== undefined) set('font-weight', weight.trim());
    }
    for (const token of (get('weblate-flags') ?? '').match(/(?:"(?:[^"\\]|\\.)*"|[^,"])+/g) ?? []) {
      const flag = token.trim();
      if (!flag || flag === 'fuzzy' || flag === '#') continue;
      const colon = flag.indexOf(':');
      flags.set(colon === -1 ? flag : flag.slice(0, colon), flag);
    }
  }
  for (const flag of extra) set(flag);
  return [...flags.values()].sort().join(', ');
}

/** Whether a formatted flag list holds `read-only`. */
export function hasReadOnlyFlag(flags: string): boolean {
  return /(?:^|, )read-only(?:,|$)/.test(flags);
}
