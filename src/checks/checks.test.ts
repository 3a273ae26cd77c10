import { describe, expect, it } from 'vitest';
import { PLURAL_SEPARATOR as SEP } from '../domain/unit.js';
import { type CheckContext, checkApplies, findCheck, inconsistentMembers, oneNumberForms, parseFlags, sourceChecks, translationChecks } from './index.js';

const en = oneNumberForms(2, (n) => (n === 1 ? 0 : 1));
const ctx = (language = 'de', extra: Partial<CheckContext> = {}): CheckContext => ({
  format: 'ts',
  sourceLanguage: 'en',
  language,
  oneNumberForms: en,
  flags: '',
  ...extra,
});
const run = (source: string, target: string, opts: { lang?: string; flags?: string; state?: number; format?: string } = {}) =>
  translationChecks(ctx(opts.lang, { format: opts.format ?? 'ts' }), { source, target, state: opts.state ?? 20, flags: opts.flags ?? '', extraFlags: '' });
const fails = (id: string, source: string, target: string, opts: Parameters<typeof run>[2] = {}) => expect(run(source, target, opts)).toContain(id);
const passes = (id: string, source: string, target: string, opts: Parameters<typeof run>[2] = {}) => expect(run(source, target, opts)).not.toContain(id);

describe('flags', () => {
  it('parses values, quotes and regexes', () => {
    const f = parseFlags('max-length:80, placeholders:$URL$:"a,b", regex:r"^\\d+$", ignore-same');
    expect(f.get('max-length')).toEqual(['80']);
    expect(f.get('placeholders')).toEqual(['$URL$', 'a,b']);
    expect(f.get('regex')).toEqual([{ regex: '^\\d+$' }]);
    expect(f.get('ignore-same')).toEqual([]);
  });
  it('accepts the issue spelling of ids', () => {
    expect(findCheck('newline_count')?.id).toBe('newline-count');
    expect(findCheck('max_length')?.id).toBe('max-length');
    expect(findCheck('nope')).toBeUndefined();
  });
});

describe('translation checks', () => {
  it('same, with the exceptions for short and technical strings', () => {
    fails('same', 'Open the file', 'Open the file');
    passes('same', 'Open the file', 'Datei öffnen');
    passes('same', 'OK', 'OK');
    passes('same', 'URL', 'URL');
    passes('same', '1:4', '1:4');
    passes('same', 'https://keepassxc.org', 'https://keepassxc.org');
    passes('same', '%1 %2', '%1 %2', { flags: 'qt-format' });
    passes('same', 'Open the file', 'Open the file', { lang: 'en_GB' });
    fails('same', 'OK', 'OK', { flags: 'strict-same' });
    passes('same', 'Open the file', 'Open the file', { flags: 'ignore-same' });
  });
  it('newlines and spaces', () => {
    fails('begin_newline', '\nHello', 'Hallo');
    fails('end_newline', 'Hello\n', 'Hallo');
    passes('end_newline', 'Hello\n', 'Hallo\n');
    fails('begin_space', '  Hello', ' Hallo');
    fails('end_space', 'Hello ', 'Hallo');
    passes('end_space', 'Hello ', 'Hallo ');
    fails('double_space', 'Hello world', 'Hallo  Welt');
    passes('double_space', 'Hello  world', 'Hallo  Welt');
    fails('newline-count', 'a\nb\nc', 'a\nb c');
    fails('escaped_newline', 'a\\nb', 'a b');
    fails('zero-width-space', 'Hello', 'Hal\u200blo');
    passes('zero-width-space', 'Hello', 'Hal\u200blo', { lang: 'km' });
  });
  it('end punctuation, with CJK, Arabic, French and ellipsis rules', () => {
    fails('end_stop', 'Save the file.', 'Datei speichern');
    passes('end_stop', 'Save the file.', 'ファイルを保存。', { lang: 'ja' });
    passes('end_stop', 'Save the file.', '保存文件。', { lang: 'zh_Hans' });
    passes('end_stop', 'Yes.', 'Ja');
    passes('end_stop', 'Save the file.', 'บันทึกไฟล์', { lang: 'th' });
    fails('end_question', 'Delete the entry?', 'Eintrag löschen');
    passes('end_question', 'Delete the entry?', 'حذف الإدخال؟', { lang: 'ar' });
    passes('end_question', 'Delete the entry?', 'Supprimer l’entrée\u202f?', { lang: 'fr' });
    passes('end_colon', 'Password:', 'Mot de passe\u00a0:', { lang: 'fr' });
    fails('end_colon', 'Password:', 'Mot de passe', { lang: 'fr' });
    passes('end_exclamation', 'Done!', 'Terminé !', { lang: 'fr' });
    fails('end_exclamation', 'Done!', 'Fertig');
    passes('end_semicolon', 'a;', 'b ;', { lang: 'fr' });
    passes('end_ellipsis', 'Open...', 'Öffnen…');
    passes('end_stop', 'Open...', 'Öffnen…');
    fails('end_ellipsis', 'Open…', 'Öffnen...');
    fails('end_stop', 'Open…', 'Öffnen...');
    passes('end_ellipsis', 'Open...', 'Öffnen...');
  });
  it('max-length, regex and placeholders flags', () => {
    fails('max-length', 'Short', 'Viel zu lang', { flags: 'max-length:5' });
    passes('max-length', 'Short', 'Kurz', { flags: 'max-length:5' });
    passes('max-length', 'Short', '<b>Kurz</b>', { flags: 'max-length:5, xml-text' });
    fails('regex', 'abc', 'ABC', { flags: 'regex:"^[a-z]+$"' });
    passes('regex', 'abc', 'xyz', { flags: 'regex:"^[a-z]+$"' });
    fails('placeholders', 'Go to $URL$', 'Gehe zu', { flags: 'placeholders:$URL$' });
    passes('placeholders', 'Go to $URL$', 'Gehe zu $url$', { flags: 'placeholders:$URL$,case-insensitive' });
    fails('placeholders', 'Hi {name}', 'Hallo', { flags: 'placeholders:r"\\{\\w+\\}"' });
  });
  it('plurals and same plurals', () => {
    fails('plurals', `%n file${SEP}%n files`, `%n Datei${SEP}`);
    passes('plurals', `%n file${SEP}%n files`, `${SEP}`, { state: 0 });
    fails('same_plurals', `%n file${SEP}%n files`, `%n Datei${SEP}%n Datei`);
    passes('same_plurals', `%n file${SEP}%n files`, `%n Datei${SEP}%n Dateien`);
  });
  it('duplicate words', () => {
    fails('duplicate', 'Remove the entry', 'Eintrag entfernen entfernen');
    passes('duplicate', 'Say bye bye', 'Sag bye bye');
    passes('duplicate', 'Wait 10 10 seconds', 'Warte 10 10 Sekunden');
    // words are runs of letters, digits (any script) and _; only white space may stand between the two
    fails('duplicate', 'Open', 'Открыть\u00a0Открыть');
    fails('duplicate', 'x', 'a 𝐀𝐀 𝐀𝐀');
    passes('duplicate', 'Open', 'Open, open');
    passes('duplicate', 'Open', 'files-files');
    passes('duplicate', 'Open', 'ab abc');
  });
  it('duplicate words: the verdict of the plain regular expressions over random texts (the scan that replaced them)', () => {
    const word = /[\p{L}\p{N}_]+/gu;
    const repeated = (text: string) => {
      const out = new Set<string>();
      let previous = '';
      let previousEnd = -1;
      for (const m of text.matchAll(word)) {
        if (m[0] === previous && /^\s+$/.test(text.slice(previousEnd, m.index)) && !/^\d+$/.test(m[0])) out.add(m[0]);
        previous = m[0];
        previousEnd = m.index + m[0].length;
      }
      return out;
    };
    const pieces = ['a', 'b', 'ab', ' ', '  ', '\u00a0', '\n', '1', '_', 'é', 'Ж', '字', '𝐀', '\ud800', '.', '-', '\u3000', '٣', 'Ⅻ'];
    let seed = 7;
    const text = () => {
      let out = '';
      for (let n = 1 + (seed % 12); n > 0; n--) out += pieces[(seed = (seed * 16807) % 2147483647) % pieces.length];
      return out;
    };
    let failing = 0;
    const differing: string[][] = [];
    for (let n = 0; n < 5000; n++) {
      const [source, target] = [text(), text()];
      const inSource = repeated(source);
      const expected = [...repeated(target)].some((w) => !inSource.has(w));
      if (expected) failing++;
      if (run(source, target).includes('duplicate') !== expected) differing.push([source, target]);
    }
    expect(differing).toEqual([]);
    expect(failing).toBeGreaterThan(20);
  });
  it('XML markup', () => {
    fails('xmltags', 'Click <b>here</b>', 'Klicke <i>hier</i>');
    passes('xmltags', 'Click <b>here</b>', 'Klicke <b>hier</b>');
    fails('xmlvalid', 'Click <b>here</b>', 'Klicke <b>hier');
    passes('xmlvalid', 'a &lt; b', 'a < b');
    fails('xmlvalid', 'a &lt; b', 'a < b', { flags: 'xml-text' });
    passes('xmlvalid', 'Line<br/>break', 'Zeile&nbsp;<br/>Umbruch');
    // a character XML forbids makes the text not well-formed: a failing check, not an error out of the checks
    fails('xmlvalid', 'Click <b>here</b>', 'Klicke\u0001 <b>hier</b>');
  });
  it('Qt format: %1, %L1 and %n', () => {
    fails('qt_format', 'About %1', 'Über', { flags: 'qt-format' });
    passes('qt_format', 'About %1', 'Über %1', { flags: 'qt-format' });
    passes('qt_format', '%1 of %2', '%2 von %1', { flags: 'qt-format' });
    fails('qt_format', 'Size %L1', 'Größe %1', { flags: 'qt-format' });
    passes('qt_format', 'About %1', 'Über', {});
    fails('qt_plural_format', `%n entry${SEP}%n entries`, `Eintrag${SEP}Einträge`, { flags: 'qt-plural-format' });
    passes('qt_plural_format', `%n entry${SEP}%n entries`, `Ein Eintrag${SEP}%n Einträge`, { flags: 'qt-plural-format' });
    passes('qt_plural_format', `%Ln entry${SEP}%Ln entries`, `%Ln Eintrag${SEP}%Ln Einträge`, { flags: 'qt-plural-format' });
  });
  it('printf-style formats', () => {
    fails('c_format', 'There are %d apples', 'Es gibt Äpfel', { flags: 'c-format' });
    passes('c_format', 'Your balance is %1$d %2$s', 'Saldo %2$s %1$d', { flags: 'c-format' });
    fails('c_format', '%s of %d', '%d von %s', { flags: 'c-format' });
    passes('c_format', '100%% done %s', '100%% fertig %s', { flags: 'c-format' });
    fails('python_format', 'Balance %(amount)s', 'Saldo %(betrag)s', { flags: 'python-format' });
    passes('python_format', 'Balance %(amount)s %(cur)s', 'Saldo %(cur)s %(amount)s', { flags: 'python-format' });
    fails('python_brace_format', 'Balance {amount}', 'Saldo {betrag}', { flags: 'python-brace-format' });
    passes('python_brace_format', 'There are {} apples', 'Es gibt {} Äpfel', { flags: 'python-brace-format' });
    fails('php_format', 'There are %d apples', 'Äpfel', { flags: 'php-format' });
    fails('javascript_format', 'There are %d apples', 'Äpfel', { flags: 'javascript-format' });
    fails('percent_placeholders', 'There are %number% apples', 'Äpfel', { flags: 'percent-placeholders' });
    fails('es_format', 'There are ${number} apples', 'Äpfel ${n}', { flags: 'es-format' });
    passes('es_format', 'There are ${ number } apples', '${number} Äpfel', { flags: 'es-format' });
  });
  it('i18next interpolation: {{count}} and $t(), on by format', () => {
    fails('i18next_interpolation', 'You have {{count}} items', 'Sie haben Elemente', { format: 'i18next' });
    passes('i18next_interpolation', 'You have {{count}} items', 'Sie haben {{ count }} Elemente', { format: 'i18next' });
    fails('i18next_interpolation', 'See $t(common.help)', 'Siehe Hilfe', { format: 'i18nextv4' });
    passes('i18next_interpolation', 'See $t(common.help)', '$t(common.help) ansehen', { format: 'i18next' });
    passes('i18next_interpolation', 'You have {{count}} items', 'Sie haben Elemente', { format: 'json' });
  });
  it('ICU MessageFormat on ARB: plurals, arguments and syntax', () => {
    const src = '{count, plural, one {# file} other {# files}}';
    passes('icu_message_format', src, '{count, plural, one {# Datei} other {# Dateien}}', { format: 'arb' });
    fails('icu_message_format', src, '{count, plural, one {# Datei} other {# Dateien}', { format: 'arb' });
    fails('icu_message_format', src, '{anzahl, plural, one {# Datei} other {# Dateien}}', { format: 'arb' });
    fails('icu_message_format', 'Hello {name}', 'Hallo {name} {extra}', { format: 'arb' });
    fails('icu_message_format', src, '{count, select, one {# Datei} other {# Dateien}}', { format: 'arb' });
  });
  it('skips empty and read-only strings, honours ignore-*', () => {
    expect(run('Hello.', '', { state: 0 })).toEqual([]);
    expect(run('Hello world.', 'Hallo Welt', { state: 100 })).toEqual([]);
    expect(run('Hello world.', 'Hallo Welt', { state: 10 })).toEqual(['end_stop']);
    expect(run('Hello world.', 'Hallo Welt', { flags: 'ignore-end-stop' })).toEqual([]);
    expect(run('Hello world.', 'Hallo Welt', { flags: 'ignore-all-checks' })).toEqual([]);
  });
});

describe('source checks', () => {
  const src = (source: string, facts = { relatedChecks: 0, longUntranslated: false }) =>
    sourceChecks(ctx('en'), { source, target: source, state: 100, flags: '', extraFlags: '' }, facts);
  it('ellipsis, optional plural, multiple failures, long untranslated', () => {
    expect(src('Open...')).toEqual(['ellipsis']);
    expect(src('Open…')).toEqual([]);
    expect(src('Delete %n file(s)')).toEqual(['optional_plural']);
    expect(src(`%n file(s)${SEP}%n files`)).toEqual([]);
    expect(src('Hi', { relatedChecks: 2, longUntranslated: false })).toEqual(['multiple_failures']);
    expect(src('Hi', { relatedChecks: 1, longUntranslated: true })).toEqual(['long_untranslated']);
  });
});

describe('inconsistent (Weblate: different elsewhere, or untranslated elsewhere)', () => {
  const m = (target: string, state: number) => ({ target, state });
  it('flags members whose target differs from another when one of the two is translated', () => {
    expect(inconsistentMembers([m('Datei', 20), m('Datei', 30)])).toEqual([false, false]);
    expect(inconsistentMembers([m('Datei', 20), m('Ablage', 20)])).toEqual([true, true]);
    expect(inconsistentMembers([m('Datei', 20), m('', 0)])).toEqual([true, true]);
    expect(inconsistentMembers([m('Datei', 10), m('Ablage', 10), m('', 0)])).toEqual([false, false, false]);
    // a fuzzy string differing from a translated one fails; a translated one identical to it does not fail because of it
    expect(inconsistentMembers([m('Datei', 20), m('Datei', 20), m('Ablage', 10)])).toEqual([true, true, true]);
    expect(inconsistentMembers([m('Datei', 20), m('Datei', 10)])).toEqual([false, false]);
    expect(inconsistentMembers([m('Datei', 20)])).toEqual([false]);
  });
  it('applies unless read-only or turned off by a flag', () => {
    const u = (flags: string, state = 20) => ({ source: 'File', target: 'Datei', state, flags, extraFlags: '' });
    expect(checkApplies(ctx(), u(''), 'inconsistent')).toBe(true);
    expect(checkApplies(ctx(), u('ignore-inconsistent'), 'inconsistent')).toBe(false);
    expect(checkApplies(ctx(), u('', 100), 'inconsistent')).toBe(false);
    expect(checkApplies(ctx('de', { flags: 'ignore-all-checks' }), u(''), 'inconsistent')).toBe(false);
  });
});
