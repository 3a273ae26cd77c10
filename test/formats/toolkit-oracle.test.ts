// The Translate Toolkit oracle itself: the PO example of the format notes read back with Weblate's identities.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeToolkit, toolkitStores, toolkitUnits } from '../helpers/toolkit.js';

const PO = `msgid ""
msgstr ""
"Language: cs\\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"

#: weblate/days.py:12
msgid "Monday"
msgstr "Pondělí"

#. Shown when nobody is logged in
#: weblate/accounts/avatar.py:163
#, fuzzy, python-format
msgctxt "No known user"
msgid "None"
msgstr "Žádný"

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d soubor"
msgstr[1] "%d soubory"
msgstr[2] "%d souborů"

#~ msgid "Old"
#~ msgstr "Starý"
`;

describeToolkit('Translate Toolkit oracle', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tms-toolkit-'));
  const file = path.join(dir, 'cs.po');
  writeFileSync(file, PO);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every entry with the toolkit fields and the id_hash Weblate computes (the notes worked them out by hand)', async () => {
    const { units } = await toolkitUnits(file, 'po');
    expect(units.map((u) => [u.header, u.obsolete])).toEqual([
      [true, false],
      [false, false],
      [false, false],
      [false, false],
      [false, true],
    ]);
    const [, monday, none, files] = units;
    expect(monday).toMatchObject({ source: ['Monday'], target: ['Pondělí'], translated: true, locations: ['weblate/days.py:12'] });
    expect(monday!.weblate.idHash).toBe(-2545223439978019002n);
    expect(none).toMatchObject({ context: 'No known user', msgctxt: 'No known user', fuzzy: true, flags: ['fuzzy', 'python-format'] });
    expect(none!.notes).toBe('Shown when nobody is logged in');
    expect(none!.weblate.idHash).toBe(-7853445022396868382n);
    expect(files).toMatchObject({ plural: true, source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'] });
    expect(files!.weblate.idHash).toBe(4252344477872586470n);
  });

  it('keys units by the template as Weblate does for po-mono, and answers a missing file with its own error', async () => {
    const [mono, missing] = await toolkitStores([
      { file, store: 'po-mono', template: file },
      { file: path.join(dir, 'missing.po'), store: 'po' },
    ]);
    if (mono instanceof Error) throw mono;
    expect(mono!.units[2]!.weblate).toMatchObject({ monolingual: true, context: 'No known user.None', source: ['Žádný'] });
    expect(mono!.units[2]!.translation?.target).toEqual(['Žádný']);
    expect(missing).toBeInstanceOf(Error);
  });
});
