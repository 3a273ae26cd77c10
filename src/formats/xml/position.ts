// Positions in XML source text for minimal-diff writes: line starts, indentation and line endings.

/** Offset of the first character of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * The whitespace between the start of the line and `offset`, or null when something else
 * stands before `offset` on its line: `indentAt('  <a>', 2) === '  '`.
 */
export function indentAt(text: string, offset: number): string | null {
  const start = lineStart(text, offset);
  for (let i = start; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return null;
  }
  return text.slice(start, offset);
}

/**
 * Offset just past the line break that follows `offset` when only spaces or tabs stand
 * between them; null otherwise (more content follows on the same line).
 */
export function endOfLineAfter(text: string, offset: number): number | null {
  let i = offset;
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  if (i === text.length) return i;
  if (text.charCodeAt(i) === 0x0a) return i + 1;
  if (text.charCodeAt(i) === 0x0d) return text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
  return null;
}

/** The line ending the text uses (from its first line break), `\n` when it has none. */
export function lineEnding(text: string): '\n' | '\r\n' {
  const lf = text.indexOf('\n');
  return lf > 0 && text.charCodeAt(lf - 1) === 0x0d ? '\r\n' : '\n';
}
