// Downloads in another format (`…/file/?format=xliff|xliff11|tmx|csv|json|po|mo`): the files Weblate's exporters make, read back by Translate Toolkit (and GNU msgfmt).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { State } from '../../src/domain/unit.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { gettextAvailable, msgfmtCheck } from '../helpers/gettext.js';
import { describeToolkit, toolkitUnits } from '../helpers/toolkit.js';

if (!gettextAvailable) console.warn('[skip] msgfmt checks of PO downloads: GNU gettext is not installed (Debian package gettext)');

interface ApiUnit {
  id: number;
  context: string;
  source: string[];
  target: string[];
  state: number;
  note: string;
  location: string;
}

describe('translation downloads converted by format', () => {
  let env: WriteEnv;
  let dir: string;
  let app: ApiUnit[];
  let web: ApiUnit[];
  beforeAll(async () => {
    env = await createWriteEnv();
    dir = mkdtempSync(path.join(os.tmpdir(), 'tms-conversions-'));
    // a pending edit is part of what is downloaded, as the store has it
    const units = async (t: string) => (await env.request('GET', `/api/translations/hello/${t}/units/`)).json.results as ApiUnit[];
    const quit = (await units('app/de')).find((u) => u.source[0] === 'Quit')!;
    const r = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['=Beenden & <raus>'], state: 20 } });
    expect(r.status, r.text).toBe(200);
    app = await units('app/de');
    web = await units('web/de');
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await env.close();
  });

  async function download(translation: string, format: string, query = '') {
    const answer = await env.request('GET', `/api/translations/hello/${translation}/file/?format=${format}${query}`);
    expect(answer.status, answer.text).toBe(200);
    const file = path.join(dir, `${translation.replace('/', '-')}.${format}`);
    writeFileSync(file, answer.bytes);
    return { answer, file, text: answer.bytes.toString() };
  }

  it('names the file <project>-<component>-<language>.<ext> with the exporter media type', async () => {
    for (const [format, ext, type] of [
      ['xliff', 'xlf', 'application/x-xliff+xml'],
      ['xliff11', 'xlf', 'application/x-xliff+xml'],
      ['tmx', 'tmx', 'application/x-tmx'],
      ['csv', 'csv', 'text/csv'],
      ['po', 'po', 'text/x-po'],
    ]) {
      const { answer } = await download('app/de', format!);
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename=hello-app-de.${ext}`);
      expect(answer.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
    }
  });

  it('refuses an unknown exporter and JSON for a bilingual component as Weblate does', async () => {
    const unknown = await env.request('GET', '/api/translations/hello/app/de/file/?format=docx');
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0]).toMatchObject({ attr: 'format', detail: 'Conversion to docx is not supported' });
    const json = await env.request('GET', '/api/translations/hello/app/de/file/?format=json');
    expect(json.status).toBe(400);
    expect(json.json.errors[0]).toMatchObject({ attr: 'format', detail: 'File format is not compatible with this translation' });
    // MO only from gettext PO components
    const mo = await env.request('GET', '/api/translations/hello/app/de/file/?format=mo');
    expect(mo.status).toBe(400);
    expect(mo.json.errors[0]).toMatchObject({ attr: 'format', detail: 'File format is not compatible with this translation' });
    const badQuery = await env.request('GET', '/api/translations/hello/app/de/file/?format=csv&q=state:%3E');
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.errors[0].attr).toBe('q');
  });

  it('exports only the units ?q= finds', async () => {
    const { text } = await download('app/de', 'csv', '&q=state:translated');
    const rows = text.trimEnd().split('\r\n');
    expect(rows).toHaveLength(1 + app.filter((u) => u.state >= State.TRANSLATED).length);
  });

  it('writes CSV rows as Translate Toolkit does, with spreadsheet formulas defused', async () => {
    const { text } = await download('app/de', 'csv');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('"location","source","target","id","fuzzy","context","translator_comments","developer_comments"');
    expect(lines).toContain('"../src/mainwindow.cpp:102","Quit","\'=Beenden & <raus>\'","","False","MainWindow","",""');
    expect(lines.find((l) => l.includes('About %1'))).toContain('"True"');
  });

  describeToolkit('Translate Toolkit reads each conversion back', () => {
    const forms = (u: { source: string[]; target: string[] }) => [u.source, u.target];

    it('xliff (gettext plural groups) and xliff11: ids, every plural form, states, notes', async () => {
      const { file } = await download('app/de', 'xliff');
      const read = (await toolkitUnits(file, 'poxliff')).units;
      expect(read.map((u) => u.id)).toEqual(app.map((u) => `NoName\x04${u.context}`));
      expect(read.map(forms)).toEqual(app.map((u) => [u.source, u.target]));
      const about = read[app.findIndex((u) => u.source[0] === 'About %1')]!;
      expect(about.xmlState).toEqual(['needs-translation']);
      expect(about.notes).toBe('%1 is the application name');
      const eleven = (await toolkitUnits((await download('app/de', 'xliff11')).file, 'plainxliff')).units;
      expect(eleven.map(forms)).toEqual(app.map((u) => [[u.source[0]], [u.target[0]]]));
    });

    it('tmx: one pair per unit, first plural forms', async () => {
      const { file } = await download('app/de', 'tmx');
      const read = (await toolkitUnits(file, 'tmx.tmxfile')).units;
      expect(read.map(forms)).toEqual(app.map((u) => [[u.source[0]], [u.target[0]]]));
    });

    it('csv: source, target and context of every unit (texts a spreadsheet would take for a formula in quotes, which Weblate reads back off)', async () => {
      const { file } = await download('app/de', 'csv');
      const read = (await toolkitUnits(file, 'csvl10n.csvfile')).units;
      const quoted = (s: string) => (/^[=+\-@|%]/.test(s) ? `'${s}'` : s);
      expect(read.map((u) => [u.context, u.source[0], u.target[0]])).toEqual(app.map((u) => [u.context, quoted(u.source[0]!), quoted(u.target[0]!)]));
    });

    it('po: every unit with its context, plural forms, fuzzy flag, notes and locations; the header names the translation and its plural', async () => {
      const { file, text } = await download('app/de', 'po');
      const read = (await toolkitUnits(file, 'po')).units;
      const header = read.find((u) => u.header)!;
      expect(header.target[0]).toContain('Plural-Forms: nplurals=2; plural=n != 1;\n');
      expect(header.target[0]).toContain(`Language-Team: German <${env.config.site_url.replace(/\/+$/, '')}/projects/hello/app/de/>\n`);
      expect(header.target[0]).toMatch(/Project-Id-Version: German \(Hello\)\n/);
      expect(header.target[0]).toMatch(/\nLanguage: de\n/);
      const units = read.filter((u) => !u.header);
      expect(units.map((u) => [u.context, ...forms(u)])).toEqual(app.map((u) => [u.context, u.source, u.target]));
      expect(units.map((u) => u.fuzzy)).toEqual(app.map((u) => u.state === State.FUZZY));
      expect(units.map((u) => u.locations)).toEqual(app.map((u) => u.location.split(', ').filter(Boolean)));
      expect(units.map((u) => u.notes)).toEqual(app.map((u) => u.note));
      expect(text).toContain('msgctxt "MainWindow"\nmsgid "Quit"\nmsgstr "=Beenden & <raus>"\n');
      // GNU gettext takes it: header, plural formula and forms, format strings
      if (gettextAvailable) expect(msgfmtCheck(file)).toEqual([]);
    });

    it('po of a monolingual component: the key as msgctxt, the template text as msgid', async () => {
      const { file } = await download('web/de', 'po');
      const units = (await toolkitUnits(file, 'po')).units.filter((u) => !u.header);
      expect(units.map((u) => [u.context, u.source[0], u.target[0]])).toEqual(web.map((u) => [u.context, u.source[0], u.target[0]]));
    });

    it('json of a monolingual component: key and target of every unit', async () => {
      const { file } = await download('web/de', 'json');
      const read = (await toolkitUnits(file, 'json')).units;
      expect(read.map((u) => [u.id.replace(/^\./, ''), u.target[0]])).toEqual(web.map((u) => [u.context, u.target[0]]));
    });
  });
});
