// The format checks gettext's flags turn on (Java, Objective-C, Lisp/Scheme, Lua, Perl, C#, Object Pascal), as Weblate checks them.
import { describe, expect, it } from 'vitest';
import { type CheckContext, oneNumberForms, translationChecks } from './index.js';

const ctx: CheckContext = { format: 'po', sourceLanguage: 'en', language: 'de', oneNumberForms: oneNumberForms(2, (n) => (n === 1 ? 0 : 1)), flags: '' };
const failing = (flags: string, source: string, target: string) => translationChecks(ctx, { source, target, state: 20, flags, extraFlags: '' });

describe('format checks for gettext flags', () => {
  it('objc-format: %@ and %1$@ compared, %#@name@ stringsdict tokens by name', () => {
    expect(failing('objc-format', 'Delete %@?', 'Löschen?')).toEqual(['objc_format']);
    expect(failing('objc-format', 'Delete %@?', '%@ löschen?')).toEqual([]);
    expect(failing('objc-format', '%1$@ of %2$ld', '%2$ld von %1$@')).toEqual([]);
    expect(failing('objc-format', '%#@files@ and %#@dirs@', '%#@dirs@ und %#@files@')).toEqual([]);
    expect(failing('objc-format', '%#@files@', '%#@file@')).toEqual(['objc_format']);
  });

  it('java-printf-format: %s, %1$s, %td; a % followed by a space is no placeholder', () => {
    expect(failing('java-printf-format', 'Hello %s, today is %1$tA', 'Hallo %s, heute ist %1$tA')).toEqual([]);
    expect(failing('java-printf-format', 'Hello %s', 'Hallo %d')).toEqual(['java_printf_format']);
    expect(failing('java-printf-format', '50 % off', '50 % Rabatt')).toEqual([]);
  });

  it('java-printf-format is on for every Android string; an Android form of 0 and 1 keeps its placeholders (strict plurals)', () => {
    const french = (n: number) => (n > 1 ? 1 : 0);
    const android = (strict: boolean): CheckContext => ({ ...ctx, format: 'aresource', language: 'fr', oneNumberForms: oneNumberForms(2, french, strict) });
    const check = (c: CheckContext, source: string, target: string) => translationChecks(c, { source, target, state: 20, flags: '', extraFlags: '' });
    expect(check(android(true), 'Hello %s', 'Bonjour %d')).toEqual(['java_printf_format']);
    expect(check(android(true), '%d file\x1e\x1e%d files', 'Un fichier\x1e\x1e%d fichiers')).toEqual(['java_printf_format']);
    expect(check(android(false), '%d file\x1e\x1e%d files', 'Un fichier\x1e\x1e%d fichiers')).toEqual([]);
    expect(check({ ...ctx, format: 'po' }, 'Hello %s', 'Bonjour %d')).toEqual([]);
  });

  it('java-format is Java MessageFormat: {0} and {1,number} by argument, and an unpaired apostrophe fails', () => {
    expect(failing('java-format', '{0} has {1,number} files', '{1,number} Dateien hat {0}')).toEqual([]);
    expect(failing('java-format', '{0} has {1} files', '{0} hat Dateien')).toEqual(['java_format']);
    expect(failing('java-format', "It''s {0}", "C'est {0}")).toEqual(['java_format']);
    expect(failing('java-format', "It''s {0}", "C''est {0}")).toEqual([]);
  });

  it('lisp-format and scheme-format: ~a, ~s, ~1@*~a directives', () => {
    expect(failing('lisp-format', 'Applying ~a to ~s', 'Anwenden von ~a auf ~s')).toEqual([]);
    expect(failing('lisp-format', 'Applying ~a to ~s', 'Anwenden von ~a')).toEqual(['lisp_format']);
    expect(failing('scheme-format', '~a of ~a', '~a von ~a')).toEqual([]);
    expect(failing('scheme-format', '~a of ~a', '~s von ~a')).toEqual(['scheme_format']);
  });

  it('lua-format, perl-format, perl-brace-format, c-sharp-format, object-pascal-format', () => {
    expect(failing('lua-format', '%d items', 'Elemente')).toEqual(['lua_format']);
    expect(failing('perl-format', '%s and %s', '%s und %s')).toEqual([]);
    expect(failing('perl-brace-format', 'Hello {name}', 'Hallo {nom}')).toEqual(['perl_brace_format']);
    expect(failing('c-sharp-format', '{0} of {1:N2}', '{1:N2} von {0}')).toEqual([]);
    expect(failing('c-sharp-format', '{0} of {1}', '{0} von')).toEqual(['c_sharp_format']);
    expect(failing('object-pascal-format', '%0:s of %1:d', '%1:d von %0:s')).toEqual([]);
    expect(failing('object-pascal-format', '%s of %d', '%d von %s')).toEqual(['object_pascal_format']);
  });

  it("gettext's no-*-format flags turn nothing on (they are plain flags in Weblate)", () => {
    expect(failing('no-c-format', '%d items', 'Elemente')).toEqual([]);
  });
});
