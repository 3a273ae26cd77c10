// The string and the text a translation form sends (the editor's save, the checks preview, a dismissal).
import { notFound, validationError } from '../../api/errors.js';
import type { Translation, UnitRecord } from '../../store/index.js';
import { unitRecord } from '../../store/unit-records.repo.js';
import type { WebContext } from '../context.js';
import { formValue } from '../context.js';

/** The string a form names (`unit`), which must belong to `translation`. */
export async function unitOfForm(ctx: WebContext, translation: Translation): Promise<UnitRecord> {
  const raw = formValue(ctx, 'unit') ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw validationError('unit', 'No string was named.');
  const unit = await ctx.services.store.read((tx) => unitRecord(tx, Number(raw)));
  if (!unit || unit.translationId !== translation.id) throw notFound();
  return unit;
}

/** The plural forms a form sends (`target_0`, `target_1`, …), with browsers' CRLF line ends made LF. */
export function targetsOfForm(ctx: WebContext): string[] {
  const targets: string[] = [];
  for (let i = 0; i < 10; i++) {
    const value = formValue(ctx, `target_${i}`);
    if (value === undefined) break;
    // the files keep the line ends the string used
    targets.push(value.replace(/\r\n/g, '\n'));
  }
  if (targets.length === 0) throw validationError('target_0', 'No translation was sent.');
  return targets;
}
