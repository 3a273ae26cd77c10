// Quality checks in the web interface: a string's failing checks in the editor (live while typing), dismissing one,
// and a translation's counts per check.
import { validationError } from '../../api/errors.js';
import { projectOfComponent, translationOf } from '../../api/lookup.js';
import { findCheck } from '../../checks/index.js';
import { dismissFailingCheck, previewChecks } from '../../checks/refresh.js';
import { hashToChecksum } from '../../domain/hash.js';
import { PLURAL_SEPARATOR } from '../../domain/unit.js';
import { checkCounts, unitChecks } from '../../store/checks.repo.js';
import type { Component, Translation, UnitRecord } from '../../store/index.js';
import type { WebAnswer, WebContext } from '../context.js';
import { formValue, signedIn } from '../context.js';
import { num, paths } from '../format.js';
import { type Html, html, renderFragment } from '../html.js';
import { targetsOfForm, unitOfForm } from './unit-form.js';

interface ShownCheck {
  id: string;
  name: string;
  description: string;
  dismissed: boolean;
}

function shown(name: string, dismissed: boolean): ShownCheck {
  const info = findCheck(name);
  return { id: name, name: info?.name ?? name, description: info?.description ?? '', dismissed };
}

function enforced(component: Component, name: string): boolean {
  return (component.settings.enforced_checks ?? []).includes(name);
}

/** Whether the visitor may dismiss this check on strings of the component (never an enforced one, as in Weblate). */
function mayDismiss(ctx: WebContext, component: Component, name: string): boolean {
  return signedIn(ctx) && ctx.access.can('unit.check', { project: projectOfComponent(ctx, component), component }) && !enforced(component, name);
}

/**
 * The editor's checks section: each failing check with its name and what it means, a button to dismiss it (or to
 * restore a dismissed one). `preview` marks checks computed from text not saved yet (no buttons then).
 */
export function checksSection(ctx: WebContext, translation: Translation, unit: UnitRecord, checks: readonly ShownCheck[], preview = false): Html {
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const active = checks.filter((c) => !c.dismissed);
  const dismissed = checks.filter((c) => c.dismissed);
  const action = `${paths.translate(ctx.catalog, translation)}dismiss/`;
  const button = (c: ShownCheck) =>
    !preview &&
    mayDismiss(ctx, component, c.id) &&
    html`<form method="post" action=${action} class="inline">
      <input type="hidden" name="csrfmiddlewaretoken" value=${ctx.csrf} />
      <input type="hidden" name="unit" value=${unit.id} />
      <input type="hidden" name="check" value=${c.id} />
      <button type="submit" name=${c.dismissed ? 'restore' : 'dismiss'} value="1" aria-label=${`${c.dismissed ? 'Restore' : 'Dismiss'} the check ${c.name}`}>${c.dismissed ? 'Restore' : 'Dismiss'}</button>
    </form>`;
  return html`<section class="checks" aria-labelledby="checks-h" data-checks data-preview=${preview ? '1' : '0'}>
    <h2 id="checks-h">Checks</h2>
    <div aria-live="polite">
      ${
        active.length === 0
          ? html`<p class="checks-none">No failing checks${preview ? ' in the text as typed' : ''}.</p>`
          : html`<ul class="failing">${active.map(
              (c) =>
                html`<li data-check=${c.id}><strong>${c.name}</strong>${enforced(component, c.id) && html` <span class="badge">enforced</span>`}: ${c.description} ${button(c)}</li>`,
            )}</ul>`
      }
    </div>
    ${
      !preview &&
      dismissed.length > 0 &&
      html`<details><summary>Dismissed (${dismissed.length})</summary><ul class="dismissed">${dismissed.map(
        (c) => html`<li data-check=${c.id}><strong>${c.name}</strong>: ${c.description} ${button(c)}</li>`,
      )}</ul></details>`
    }
  </section>`;
}

/** The stored checks of a unit, as the editor shows them. */
export async function unitChecksShown(ctx: WebContext, unit: UnitRecord): Promise<ShownCheck[]> {
  return (await ctx.services.store.read((tx) => unitChecks(tx, unit.id))).map((c) => shown(c.name, c.dismissed));
}

/**
 * `POST /translate/<p>/<c>/<lang>/checks/` (the editor's script, while typing): the checks section for the text in
 * `target_0`, `target_1`, … of string `unit`, computed as a save would and stored nowhere.
 */
export async function previewChecksFragment(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const unit = await unitOfForm(ctx, translation);
  const targets = targetsOfForm(ctx);
  const failing = await ctx.services.store.read((tx) => previewChecks(tx, unit.id, targets.join(PLURAL_SEPARATOR)));
  const stored = new Map((await ctx.services.store.read((tx) => unitChecks(tx, unit.id))).map((c) => [c.name, c.dismissed]));
  const checks = failing.map((name) => shown(name, stored.get(name) ?? false));
  return { html: renderFragment(checksSection(ctx, translation, unit, checks, true)) };
}

/** `POST /translate/<p>/<c>/<lang>/dismiss/`: dismisses (`dismiss`) or restores (`restore`) one check of a string. */
export async function dismissCheck(ctx: WebContext): Promise<WebAnswer> {
  const translation = translationOf(ctx);
  const component = ctx.catalog.componentsById.get(translation.componentId)!;
  const unit = await unitOfForm(ctx, translation);
  const name = formValue(ctx, 'check') ?? '';
  if (!mayDismiss(ctx, component, name)) {
    return { status: 403, html: renderFragment(html`<p>You may not dismiss this check${enforced(component, name) ? ': the component enforces it' : ''}.</p>`) };
  }
  const dismiss = formValue(ctx, 'restore') === undefined;
  if (!(await ctx.services.store.write((tx) => dismissFailingCheck(tx, unit, name, dismiss))))
    throw validationError('check', `The string does not fail the check "${name}".`);
  return { redirect: `${paths.translate(ctx.catalog, translation)}?checksum=${hashToChecksum(unit.idHash)}`, status: 303 };
}

/** The translation page's list of failing checks, each with its count and a link to its strings in the editor. */
export async function checkCountsList(ctx: WebContext, translation: Translation): Promise<Html> {
  const counts = (await ctx.services.store.read((tx) => checkCounts(tx, translation.id))).filter((c) => c.active > 0);
  if (counts.length === 0) return html``;
  const translate = paths.translate(ctx.catalog, translation);
  return html`<section aria-labelledby="checks-list"><h2 id="checks-list">Failing checks</h2>
    <ul class="filters">${counts.map((c) => {
      const info = findCheck(c.name);
      return html`<li><a href=${`${translate}?q=${encodeURIComponent(`check:${c.name}`)}`} title=${info?.description ?? ''}>${info?.name ?? c.name}</a> <span class="count">${num(c.active)}</span></li>`;
    })}</ul>
  </section>`;
}
