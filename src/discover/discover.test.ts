import { describe, expect, it } from 'vitest';
import { type Proposal, discoverComponents, fnmatch, isLanguageCode } from './discover.js';

const encoder = new TextEncoder();

function discover(files: Record<string, string | Uint8Array>): Proposal[] {
  return discoverComponents({
    paths: Object.keys(files),
    read: (p) => {
      const v = files[p];
      return v === undefined ? null : typeof v === 'string' ? encoder.encode(v) : v;
    },
  });
}

describe('discoverComponents', () => {
  it('Transifex: each resource of .tx/config with a file_filter, its type as the format, its source file as template or new base', () => {
    const config = [
      '[main]',
      'host = https://www.transifex.com',
      '',
      '# the old section names and the new ones',
      '[app.django]',
      'file_filter = locale/<lang>/LC_MESSAGES/django.po',
      'source_file = locale/django.pot',
      'type = PO',
      '',
      '[o:org:p:app:r:android]',
      'file_filter: app/res/values-<lang>/strings.xml',
      'source_file: app/res/values/strings.xml',
      'type: android',
      '',
      '[app.yaml]',
      'file_filter = config/<lang>.yml',
      'type = YML',
      '',
      '[app.other]',
      'file_filter = other/<lang>.txt',
      'type = TXT',
      '',
      '[app.gone]',
      'file_filter = gone/<lang>.po',
      'source_file = gone/en.po',
      'type = PO',
    ].join('\n');
    expect(
      discover({
        '.tx/config': config,
        'locale/de/LC_MESSAGES/django.po': '',
        'locale/django.pot': '',
        'app/res/values/strings.xml': '',
        'app/res/values-de/strings.xml': '',
        'config/en.yml': '',
        'other/de.txt': '',
      }),
    ).toEqual([
      { filemask: 'locale/*/LC_MESSAGES/django.po', file_format: 'po', template: '', new_base: 'locale/django.pot' },
      { filemask: 'app/res/values-*/strings.xml', file_format: 'aresource', template: 'app/res/values/strings.xml', new_base: '' },
      // no source_file: the mask with the source language, as for the other rules
      { filemask: 'config/*.yml', file_format: 'ruby-yaml', template: 'config/en.yml', new_base: '' },
      { filemask: 'other/*.txt', file_format: 'auto', template: '', new_base: '' },
      // gone/en.po does not exist: the resource is left out; the files' own rules do not propose Transifex's masks again
    ]);
  });

  it('gettext: the language part becomes the mask, a .pot beside it the base for new files', () => {
    expect(discover({ 'po/de.po': '', 'po/pt_BR.po': '', 'po/app.pot': '', 'src/main.c': '' })).toEqual([
      { filemask: 'po/*.po', file_format: 'po', template: '', new_base: 'po/app.pot' },
    ]);
    expect(discover({ 'locale/de/LC_MESSAGES/app.po': '', 'locale/en/LC_MESSAGES/app.po': '' })).toEqual([
      { filemask: 'locale/*/LC_MESSAGES/app.po', file_format: 'po-mono', template: 'locale/en/LC_MESSAGES/app.po', new_base: '' },
    ]);
  });

  it('Android: values/strings.xml is the template of values-*/strings.xml', () => {
    expect(discover({ 'app/res/values/strings.xml': '', 'app/res/values-de/strings.xml': '', 'app/res/values/colors.xml': '' })).toEqual([
      { filemask: 'app/res/values-*/strings.xml', file_format: 'aresource', template: 'app/res/values/strings.xml', new_base: '' },
    ]);
  });

  it('Apple: Base.lproj or en.lproj templates, UTF-16 files keep strings, UTF-8 (ASCII too) strings-utf8; .stringsdict beside them', () => {
    const utf16 = new Uint8Array([0xff, 0xfe, 0x22, 0, 0x61, 0, 0x22, 0]);
    expect(
      discover({
        'ios/Base.lproj/Localizable.strings': '"a" = "b";',
        'ios/de.lproj/Localizable.strings': '"a" = "ä";',
        'ios/Base.lproj/Localizable.stringsdict': '<plist/>',
        'ios/en.lproj/Root.strings': utf16,
      }),
    ).toEqual([
      { filemask: 'ios/*.lproj/Localizable.strings', file_format: 'strings-utf8', template: 'ios/Base.lproj/Localizable.strings', new_base: '' },
      { filemask: 'ios/*.lproj/Root.strings', file_format: 'strings', template: 'ios/en.lproj/Root.strings', new_base: '' },
      { filemask: 'ios/*.lproj/Localizable.stringsdict', file_format: 'stringsdict', template: 'ios/Base.lproj/Localizable.stringsdict', new_base: '' },
    ]);
  });

  it('dotted codes (messages.de_CH.xlf) give one mask per domain, with the code-less file as template (and base for new languages)', () => {
    expect(discover({ 'l10n/messages.de.xlf': '', 'l10n/messages.de_CH.xlf': '', 'l10n/messages.xlf': '', 'l10n/validators.fr.xlf': '' })).toEqual([
      { filemask: 'l10n/messages.*.xlf', file_format: 'xliff', template: 'l10n/messages.xlf', new_base: 'l10n/messages.xlf' },
      { filemask: 'l10n/validators.*.xlf', file_format: 'xliff', template: '', new_base: '' },
    ]);
  });

  it('JSON: the variant from the template’s shape; a lone _one key is not an i18next plural', () => {
    const found = (template: string) => discover({ 'locales/en.json': template, 'locales/de.json': '{}' })[0]!.file_format;
    expect(found('{"a": "A"}')).toBe('json');
    expect(found('{"a": {"b": "B"}, "c_one": "x"}')).toBe('json-nested');
    expect(found('{"item": "I", "item_plural": "Is"}')).toBe('i18next');
    expect(found('{"item_one": "I", "item_other": "Is"}')).toBe('i18nextv4');
  });

  it('skips test folders and parts that only look like codes to the data (src, po, ts)', () => {
    expect(discover({ 'tests/po/de.po': '', 'src/ts/app.ts': '', 'src/lang/app_de.ts': '' })).toEqual([
      { filemask: 'src/lang/app_*.ts', file_format: 'ts', template: '', new_base: 'src/lang/app_de.ts' },
    ]);
    expect(isLanguageCode('pt-BR')).toBe(true);
    expect(isLanguageCode('zh_Hans')).toBe(true);
    expect(isLanguageCode('src')).toBe(false);
  });

  it('TBX glossaries are proposed without a template', () => {
    expect(discover({ 'glossary/de.tbx': '', 'glossary/en.tbx': '' })).toEqual([
      { filemask: 'glossary/*.tbx', file_format: 'tbx', template: '', new_base: '' },
    ]);
  });
});

describe('fnmatch', () => {
  it('matches as Python’s fnmatch does: * across slashes, ? and sets', () => {
    expect(fnmatch('res/values-de/strings.xml', '*.xml')).toBe(true);
    expect(fnmatch('resources.resx', 'resources.res[xw]')).toBe(true);
    expect(fnmatch('resources.resy', 'resources.res[xw]')).toBe(false);
    expect(fnmatch('a.b', 'a?b')).toBe(true);
  });
});
