// The label record (Weblate's project label), in a project's list and in a unit's `labels`.
import type { Label } from '../../store/labels.repo.js';
import { Serializer, t } from '../serializer.js';
import type { Ctx } from './common.js';

/** `/api/projects/<p>/labels/` and a unit's `labels`. */
export const labelSerializer = new Serializer<Label, Ctx>('Label', [
  { name: 'id', type: t.integer, get: (l) => l.id },
  { name: 'name', type: t.string, get: (l) => l.name },
  { name: 'description', type: t.string, get: (l) => l.description },
  { name: 'color', type: t.string, get: (l) => l.color },
]);
