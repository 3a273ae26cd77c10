// A small RFC 4180 CSV reader for the bundled language tables (quoted fields, "" escapes, CRLF or LF).
import { FormatParseError } from '../domain/errors.js';

/**
 * Split CSV text into records of fields. Quoted fields may hold commas, quotes (doubled) and line
 * breaks; a final line break does not start an empty record.
 *
 * @example readCsv('code,name\nckb_IQ,"Kurdish (Sorani, Iraq)"\n') // [['code','name'],['ckb_IQ','Kurdish (Sorani, Iraq)']]
 */
export function readCsv(text: string, filename = '<csv>'): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let lineStart = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (reason: string): never => {
    throw new FormatParseError(filename, line, i - lineStart + 1, reason);
  };
  const endRecord = () => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
    afterQuote = false;
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else {
        if (ch === '\n') {
          line++;
          lineStart = i + 1;
        }
        field += ch;
      }
    } else if (ch === ',') {
      record.push(field);
      field = '';
      afterQuote = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      lineStart = i + 1;
    } else if (afterQuote) {
      fail(`unexpected ${JSON.stringify(ch)} after a closing quote`);
    } else if (ch === '"') {
      if (field !== '') fail('a quote inside an unquoted field');
      quoted = true;
    } else {
      field += ch;
    }
  }
  if (quoted) fail('unterminated quoted field');
  if (field !== '' || record.length > 0 || afterQuote) endRecord();
  return records;
}

/**
 * Read a CSV table with a header row into objects keyed by the header names. Rows whose first field
 * starts with `#` are comments (language-data uses `#,Android` section markers) and are skipped,
 * as are blank lines.
 */
export function readCsvTable(text: string, filename = '<csv>'): Record<string, string>[] {
  const [header, ...rows] = readCsv(text, filename);
  if (!header) return [];
  const rowsOut: Record<string, string>[] = [];
  for (const row of rows) {
    if (row[0]?.startsWith('#') || (row.length === 1 && row[0] === '')) continue;
    const item: Record<string, string> = {};
    header.forEach((name, index) => {
      if (name !== '') item[name] = row[index] ?? '';
    });
    rowsOut.push(item);
  }
  return rowsOut;
}
