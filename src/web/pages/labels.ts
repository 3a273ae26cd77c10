// The labels page of a project (/labels/<p>/, Weblate's address): its labels with how many strings carry each, a form to create one (the API's own create) and delete buttons, for those who may edit the project.

import { permissionDenied } from '../../api/errors.js';
import { createProjectLabel } from '../../api/handlers/labels.js';
import { projectOf } from '../../api/lookup.js';
import type { Project } from '../../store/index.js';
import { LABEL_COLORS, deleteLabel, findLabel, labelledStrings, projectLabels } from '../../store/labels.repo.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, refreshed } from '../context.js';
import { num, paths } from '../format.js';
import { html } from '../html.js';
import { labelChip, page } from './layout.js';

/** The project of the path, for a visitor who may edit it (403 otherwise). */
function managedProject(ctx: WebContext): Project {
  const project = projectOf(ctx);
  if (!ctx.access.can('project.edit', { project })) throw permissionDenied('Can not edit project');
  return project;
}

/** `/labels/<p>/`. */
export function labelsPath(project: Project): string {
  return `/labels/${encodeURIComponent(project.slug)}/`;
}

/** `GET /labels/<p>/`: the project's labels, each with its strings and a delete button, and the form to create one. */
export async function labelsPage(ctx: WebContext): Promise<WebAnswer> {
  const project = managedProject(ctx);
  const labels = await ctx.services.store.read(async (tx) => {
    const out = [];
    for (const label of await projectLabels(tx, project.id)) out.push({ label, strings: await labelledStrings(tx, label.id) });
    return out;
  });
  const action = labelsPath(project);
  const body = html`<h1>Labels — ${project.name}</h1>
    <p class="hint">Labels mark source strings (with bulk edit, or <code>labels</code> in the API); every translation of a string shows its labels, and <code>label:NAME</code> finds them.</p>
    ${
      labels.length === 0
        ? html`<p>No labels yet.</p>`
        : html`<table class="labels">
            <thead><tr><th scope="col">Label</th><th scope="col">Description</th><th scope="col" class="num">Strings</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              ${labels.map(
                ({ label, strings }) => html`<tr>
                  <th scope="row">${labelChip(label)}</th>
                  <td>${label.description}</td>
                  <td class="num" data-strings=${strings}>${num(strings)}</td>
                  <td>
                    <form method="post" action=${action} class="inline">
                      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
                      <input type="hidden" name="delete" value=${label.id} />
                      <button type="submit" class="link" aria-label=${`Delete ${label.name}`}>Delete</button>
                    </form>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>`
    }
    <h2 id="new-label-h">New label</h2>
    <form method="post" action=${action} class="label-form" aria-labelledby="new-label-h">
      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
      <div class="field"><label for="name">Name</label><input id="name" name="name" required maxlength="190" /></div>
      <div class="field"><label for="description">Description</label><input id="description" name="description" maxlength="250" /></div>
      <div class="field">
        <label for="color">Colour</label>
        <select id="color" name="color">
          ${LABEL_COLORS.map((c) => html`<option value=${c}>${c}</option>`)}
        </select>
      </div>
      <div class="buttons"><button type="submit" class="primary">Create label</button></div>
    </form>`;
  const crumbs = [{ label: project.name, href: paths.project(project) }, { label: 'Labels' }];
  return { html: page(ctx, { title: `Labels — ${project.name}`, crumbs, body }) };
}

/** `POST /labels/<p>/`: creates a label (as `POST /api/projects/<p>/labels/`), or deletes the one `delete` names. */
export async function editLabels(ctx: WebContext): Promise<WebAnswer> {
  const project = managedProject(ctx);
  const remove = formValue(ctx, 'delete');
  if (remove !== undefined) {
    await ctx.services.store.write(async (tx) => {
      const label = /^\d{1,15}$/.test(remove) ? await findLabel(tx, Number(remove)) : undefined;
      if (label?.projectId === project.id) await deleteLabel(tx, label.id);
    });
  } else {
    await createProjectLabel({ ...ctx, body: ctx.body!, reload: async () => refreshed(ctx) });
  }
  return { redirect: labelsPath(project), status: 303 };
}
