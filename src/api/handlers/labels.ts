// Handlers for a project's labels (`/api/projects/<p>/labels/`), as Weblate's ProjectViewSet.labels answers them.
import { LABEL_COLORS, createLabel, projectLabels } from '../../store/labels.repo.js';
import { type Answer, json } from '../answer.js';
import { stringField } from '../body.js';
import type { RequestContext } from '../context.js';
import { ApiError, permissionDenied, validationError } from '../errors.js';
import { projectOf } from '../lookup.js';
import { paginateArray } from '../pagination.js';
import { labelSerializer } from '../serializers/label.js';
import type { WriteContext } from '../write.js';

/** `GET /api/projects/<p>/labels/`: the project's labels by name, paginated. */
export async function listProjectLabels(ctx: RequestContext): Promise<Answer> {
  const project = projectOf(ctx);
  const labels = await ctx.services.store.read((tx) => projectLabels(tx, project.id));
  return json(paginateArray(ctx, 'standard', labels, (l) => labelSerializer.write(l, ctx)));
}

/** `POST /api/projects/<p>/labels/`: `name`, `description`, `color` (one of Weblate's colour names); 201 with the label (project.edit). */
export async function createProjectLabel(ctx: WriteContext): Promise<Answer> {
  const project = projectOf(ctx);
  if (!ctx.access.can('project.edit', { project })) throw permissionDenied('Can not edit project');
  const name = stringField(ctx.body, 'name')?.trim() ?? '';
  if (name === '') throw validationError('name', 'This field is required.', 'required');
  if (name.length > 190) throw validationError('name', 'Ensure this field has no more than 190 characters.', 'max_length');
  const description = stringField(ctx.body, 'description')?.trim() ?? '';
  if (description.length > 250) throw validationError('description', 'Ensure this field has no more than 250 characters.', 'max_length');
  const color = stringField(ctx.body, 'color') ?? 'navy';
  if (!(LABEL_COLORS as readonly string[]).includes(color)) throw validationError('color', `"${color}" is not a valid choice.`, 'invalid_choice');
  const label = await ctx.services.store.write((tx) => createLabel(tx, { projectId: project.id, name, description, color }));
  if (!label) throw new ApiError(400, [{ code: 'unique', detail: 'The fields project, name must make a unique set.', attr: 'non_field_errors' }], {}, true);
  return { status: 201, json: labelSerializer.write(label, ctx) };
}
