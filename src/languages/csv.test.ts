import { describe, expect, it } from 'vitest';
import { readCsv, readCsvTable } from './csv.js';

describe('readCsv', () => {
  it('splits plain records and fields', () => {
    expect(readCsv('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    const text = 'code,name\nckb_IQ,"Kurdish (Sorani, Iraq)"\nx,"say ""hi"""\ny,"two\nlines"\n';
    expect(readCsv(text)).toEqual([
      ['code', 'name'],
      ['ckb_IQ', 'Kurdish (Sorani, Iraq)'],
      ['x', 'say "hi"'],
      ['y', 'two\nlines'],
    ]);
  });

  it('accepts CRLF, a missing final line break, empty fields and a BOM', () => {
    expect(readCsv('\ufeffa,,b\r\n,"",\r\nlast,row')).toEqual([
      ['a', '', 'b'],
      ['', '', ''],
      ['last', 'row'],
    ]);
  });

  it('returns no records for empty text', () => {
    expect(readCsv('')).toEqual([]);
  });

  it('reports malformed quoting with the line and column', () => {
    expect(() => readCsv('a,b\n"open,c\n', 'x.csv')).toThrowError(expect.objectContaining({ code: 'FormatParseError' }));
    try {
      readCsv('a,b\nc,"d"e\n', 'x.csv');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'FormatParseError', data: { filename: 'x.csv', line: 2, column: 6 } });
    }
    expect(() => readCsv('a,b"c\n')).toThrowError(expect.objectContaining({ code: 'FormatParseError' }));
  });
});

describe('readCsvTable', () => {
  it('keys rows by the header and skips # comment rows and blank lines', () => {
    const text = 'source,target\n#,Android\nbe_rby,be_Latn\n\nchinese,zh_Hans\n';
    expect(readCsvTable(text)).toEqual([
      { source: 'be_rby', target: 'be_Latn' },
      { source: 'chinese', target: 'zh_Hans' },
    ]);
  });

  it('ignores unnamed header columns and fills missing fields with empty strings', () => {
    expect(readCsvTable('code,\nar,\nhe\n')).toEqual([{ code: 'ar' }, { code: 'he' }]);
    expect(readCsvTable('a,b\n1\n')).toEqual([{ a: '1', b: '' }]);
  });
});
