// Weblate's translation flags: parsing `name`, `name:value:value`, quoted and `r"…"` values, and merging sources.

/** One flag value: plain text, or a regular expression written as `r"…"`. */
export type FlagValue = string | { regex: string };

/** Parsed flags: each name with its values (empty for a plain flag); a later flag of the same name wins. */
export type Flags = Map<string, FlagValue[]>;

/**
 * Parses a flag list as Weblate writes it: comma separated, values after colons, values with commas or colons
 * quoted (`"a,b"`, backslash escapes), `r"…"` for a regular expression. Malformed parts are skipped, never thrown.
 * @example parseFlags('max-length:80, placeholders:$URL$:"a,b", ignore-same').get('max-length') // ['80']
 */
export function parseFlags(text: string, into: Flags = new Map()): Flags {
  if (text === '') return into;
  let i = 0;
  const n = text.length;
  while (i < n) {
    // one flag: name, then values separated by ':'
    while (i < n && (text[i] === ',' || text[i] === ' ' || text[i] === '\n' || text[i] === '\t')) i++;
    if (i >= n) break;
    const parts: FlagValue[] = [];
    let current = '';
    let quoted: FlagValue | null = null;
    while (i < n && text[i] !== ',') {
      const c = text[i]!;
      if (c === ':') {
        parts.push(quoted ?? current.trim());
        current = '';
        quoted = null;
        i++;
      } else if ((c === '"' || (c === 'r' && text[i + 1] === '"' && current.trim() === '')) && quoted === null) {
        const regex = c === 'r';
        i += regex ? 2 : 1;
        let value = '';
        while (i < n && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < n) {
            value += regex && text[i + 1] !== '"' ? `\\${text[i + 1]}` : text[i + 1];
            i += 2;
          } else {
            value += text[i++];
          }
        }
        i++;
        quoted = regex ? { regex: value } : value;
        current = '';
      } else {
        current += c;
        i++;
      }
    }
    parts.push(quoted ?? current.trim());
    const name = parts[0];
    if (typeof name === 'string' && name !== '') into.set(name, parts.slice(1));
  }
  return into;
}

/** Merges flag lists in order (file format, project, component, file, string): later ones win per name. */
export function mergeFlags(...texts: readonly string[]): Flags {
  const flags: Flags = new Map();
  for (const t of texts) parseFlags(t, flags);
  return flags;
}

/** The single value of a flag as text, or undefined. */
export function flagText(flags: Flags, name: string): string | undefined {
  const v = flags.get(name)?.[0];
  return typeof v === 'string' ? v : undefined;
}

/** A value as parseFlags reads it back: plain, quoted when it holds a separator or quote, `r"…"` for a pattern. */
function valueText(v: FlagValue): string {
  if (typeof v !== 'string') return `r"${v.regex.replace(/"/g, '\\"')}"`;
  return /^[^,:"\\\s]*$/.test(v) ? v : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Writes flags as Weblate lists them, so that parseFlags reads the same flags back.
 * @example flagsText(parseFlags('max-length:80, ignore-same')) === 'max-length:80, ignore-same'
 */
export function flagsText(flags: Flags): string {
  return [...flags].map(([name, values]) => [name, ...values.map(valueText)].join(':')).join(', ');
}
