import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { poToMo } from './src/formats/po/mo.js';
for (const f of ['/work/shared/corpus/MidnightCommander-mc/po/de.po', '/work/shared/corpus/audacity-audacity/au3/locale/ar.po', 'fixtures/formats/po/cs.po', '/work/shared/corpus/MidnightCommander-mc/po/ru.po']) {
  const mo = poToMo(readFileSync(f), { filename: f, language: 'x', sourceLanguage: 'en' });
  writeFileSync('/tmp/ours.mo', mo);
  execFileSync('msgfmt', ['-o', '/tmp/theirs.mo', f]);
  const a = execFileSync('msgunfmt', ['/tmp/ours.mo'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const b = execFileSync('msgunfmt', ['/tmp/theirs.mo'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  console.log(f, a === b, a.length, b.length);
  if (a !== b) { writeFileSync('/tmp/a.po', a); writeFileSync('/tmp/b.po', b); console.log(execFileSync('sh', ['-c', 'diff /tmp/a.po /tmp/b.po | head -20'], { encoding: 'utf8' })); }
}
