// GNU gettext as an oracle for PO and MO files (Debian package gettext): msgfmt's checks and msgunfmt's reading.
import { execFileSync, spawnSync } from 'node:child_process';

/** Whether msgfmt and msgunfmt run here. */
export const gettextAvailable =
  spawnSync('msgfmt', ['--version'], { stdio: 'ignore' }).status === 0 && spawnSync('msgunfmt', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * What `msgfmt --check` says of a PO file besides the two placeholders Weblate's exporter leaves in the header
 * (PO-Revision-Date, Last-Translator); a failing check adds its exit status. Empty: GNU gettext takes the file.
 */
export function msgfmtCheck(file: string): string[] {
  const r = spawnSync('msgfmt', ['--check', '-o', '/dev/null', file], { encoding: 'utf8' });
  const said = r.stderr.split('\n').filter((l) => l !== '' && !/header field '(PO-Revision-Date|Last-Translator)' still has the initial default value/.test(l));
  return r.status === 0 ? said : [...said, `exit status ${r.status}`];
}

/** An MO file as msgunfmt prints it back (PO text, entries sorted). */
export function msgunfmt(file: string): string {
  return execFileSync('msgunfmt', [file], { encoding: 'utf8' });
}
