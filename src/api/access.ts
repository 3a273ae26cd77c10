// Who may see what: the caller's principal (from team memberships) and visibility of projects, components, translations.
import {
  type ComponentScope,
  type PermissionTarget,
  type Principal,
  type ProjectScope,
  canAccessComponent,
  canAccessProject,
  hasPermission,
} from '../auth/check.js';
import type { AccessControl, LanguageSelection, ProjectSelection, Role } from '../auth/defaults.js';
import type { GlobalPermission, MetaPermission, ObjectPermission } from '../auth/permissions.js';
import { type StatsChange, indexOfId, statsChangeSince, translationsChangeSince } from '../store/catalog.repo.js';
import type { AccountRow, MembershipRow } from '../store/index.js';
import type { Catalog, CatalogStats, Component, Project, Translation } from '../store/index.js';

/** The permission resolver's view of a user and their teams. */
export function toPrincipal(user: AccountRow, memberships: readonly MembershipRow[]): Principal {
  return {
    superuser: user.is_superuser !== 0,
    active: user.is_active !== 0,
    anonymous: user.is_anonymous !== 0,
    bot: user.is_bot !== 0,
    hasEmail: user.email !== '',
    teams: memberships.map((m) => ({
      name: m.name,
      // Roles come from the store with their permission lists, so custom roles count too.
      roles: m.roles as Role[],
      projectSelection: m.projectSelection as ProjectSelection,
      projects: m.projects,
      languageSelection: m.languageSelection as LanguageSelection,
      languages: m.languages,
      components: m.components,
      enforced2fa: m.enforced2fa,
    })),
  };
}

export function projectScope(project: Project): ProjectScope {
  const s = project.settings;
  return {
    id: project.id,
    accessControl: (s.access_control ?? 0) as AccessControl,
    enforced2fa: Boolean(s.enforced_2fa),
    translationReview: Boolean(s.translation_review),
    sourceReview: Boolean(s.source_review),
  };
}

export function componentScope(component: Component): ComponentScope {
  const s = component.settings;
  return {
    id: component.id,
    restricted: Boolean(s.restricted),
    locked: component.locked,
    isGlossary: Boolean(s.is_glossary),
    hasTemplate: Boolean(s.template),
    manageUnits: Boolean(s.manage_units),
    editTemplate: s.edit_template ?? true,
    newLang: s.new_lang,
    enableSuggestions: s.enable_suggestions ?? true,
    suggestionVoting: Boolean(s.suggestion_voting),
    suggestionAutoaccept: s.suggestion_autoaccept ?? 0,
    intermediate: Boolean(s.intermediate),
    agreement: Boolean(s.agreement),
  };
}

/** Each principal's access over each catalog snapshot: both are replaced when the data changes. */
const shared = new WeakMap<Catalog, WeakMap<Principal, Access>>();
/**
 * Each principal's visibility over each structure of the catalog: keyed by its projects list, which snapshots that
 * differ only in statistics or translations share (refreshCatalog), so that a string's edit or a commit does not check
 * every component again.
 */
const visibilities = new WeakMap<readonly Project[], WeakMap<Principal, Visibility>>();

/** What a principal may see of one structure of the catalog (projects, components, translations), memoized. */
interface Visibility {
  projects: Map<number, boolean>;
  components: Map<number, boolean>;
  visibleProjects?: number[] | null;
  hidden?: number[];
  projectList?: readonly Project[];
  componentList?: readonly Component[];
  /** What follows from the translations too, for the catalog's list of translations it was derived from (`of`). */
  translations?: { of: readonly Translation[]; visible?: number[] | null; list?: readonly Translation[] };
  /** The latest sums of statistics (`Access.rememberSums`) with the statistics and translations they sum, to move to the next snapshot. */
  sums?: Map<string, { stats: ReadonlyMap<number, CatalogStats>; translations: readonly Translation[]; value: unknown }>;
}

/**
 * Visibility of one principal over one catalog snapshot: answers are memoized, lists of visible ids computed once.
 * `Access.of` shares it between the requests of a principal until the data changes (a new catalog), so that nothing
 * a page needs is recomputed over the whole site per request; the visibility itself carries over to a snapshot that
 * changed only in statistics or translations (what it derived from the translations derived again when they changed).
 */
export class Access {
  private readonly seen: Visibility;
  private readonly kept = new Map<string, unknown>();

  constructor(
    readonly principal: Principal,
    private readonly catalog: Catalog,
  ) {
    let byPrincipal = visibilities.get(catalog.projects);
    if (!byPrincipal) {
      byPrincipal = new WeakMap();
      visibilities.set(catalog.projects, byPrincipal);
    }
    let seen = byPrincipal.get(principal);
    if (!seen) {
      seen = { projects: new Map(), components: new Map() };
      byPrincipal.set(principal, seen);
    }
    this.seen = seen;
  }

  /**
   * The principal's visibility over this catalog, shared by its requests until the catalog is replaced.
   * @example const access = Access.of(await services.principal(user), catalog)
   */
  static of(principal: Principal, catalog: Catalog): Access {
    let byPrincipal = shared.get(catalog);
    if (!byPrincipal) {
      byPrincipal = new WeakMap();
      shared.set(catalog, byPrincipal);
    }
    let access = byPrincipal.get(principal);
    if (!access) {
      access = new Access(principal, catalog);
      byPrincipal.set(principal, access);
    }
    return access;
  }

  /**
   * What `make` derives from the catalog and this visibility alone (summed statistics, groupings), made once per
   * catalog snapshot and principal: `key` names it.
   */
  remember<T>(key: string, make: () => T): T {
    if (this.kept.has(key)) return this.kept.get(key) as T;
    const value = make();
    this.kept.set(key, value);
    return value;
  }

  /**
   * Sums (or lists) of the catalog's statistics over this visibility, made once per snapshot and principal like
   * `remember`'s, and carried to a later snapshot when only statistics rows or translations changed (within a few
   * refreshes, `statsChangeSince`): `move` then gets the sums last made and what changed since, so that the first page
   * after an edit or a commit does not sum every translation again.
   */
  rememberSums<T>(key: string, make: () => T, move: (previous: T, change: StatsChange) => T): T {
    return this.remember(key, () => {
      this.seen.sums ??= new Map();
      const last = this.seen.sums.get(key);
      const change = last && statsChangeSince(this.catalog, last.stats, last.translations);
      let value: T;
      if (last?.stats === this.catalog.stats && last.translations === this.catalog.translations) value = last.value as T;
      else if (last && change) value = move(last.value as T, change);
      else value = make();
      this.seen.sums.set(key, { stats: this.catalog.stats, translations: this.catalog.translations, value });
      return value;
    });
  }

  /** The visible projects, in id order. */
  projectList(): readonly Project[] {
    this.seen.projectList ??= this.catalog.projects.filter((p) => this.project(p));
    return this.seen.projectList;
  }

  /** The visible components, in id order. */
  componentList(): readonly Component[] {
    this.seen.componentList ??= this.catalog.components.filter((c) => this.component(c));
    return this.seen.componentList;
  }

  /** The visible translations, in id order. */
  translationList(): readonly Translation[] {
    const seen = this.translationsSeen();
    seen.list ??= this.catalog.translations.filter((t) => this.translation(t));
    return seen.list;
  }

  /** The visibility's lists derived from translations, for this catalog's translations (a refresh may replace them alone). */
  private translationsSeen(): NonNullable<Visibility['translations']> {
    const last = this.seen.translations;
    if (last?.of === this.catalog.translations) return last;
    this.seen.translations = { of: this.catalog.translations, ...(last && this.movedTranslations(last)) };
    return this.seen.translations;
  }

  /**
   * `last`'s lists with the translations a few refreshes replaced in place (`translationsChangeSince`): a commit moves
   * revisions, not what is visible. Nothing when one was added (the lists are derived again).
   */
  private movedTranslations(last: NonNullable<Visibility['translations']>): { visible?: number[] | null; list?: readonly Translation[] } {
    const changed = translationsChangeSince(this.catalog, last.of);
    if (!changed) return {};
    let list = last.list && [...last.list];
    for (const id of changed) {
      const translation = this.catalog.translationsById.get(id);
      if (!translation) continue;
      if (last.of[indexOfId(last.of, id)]?.id !== id) return {};
      if (!list || !this.translation(translation)) continue;
      const at = indexOfId(list, id);
      if (list[at]?.id === id) list[at] = translation;
      else list = undefined;
    }
    return { visible: last.visible, list };
  }

  project(project: Project): boolean {
    let seen = this.seen.projects.get(project.id);
    if (seen === undefined) {
      seen = canAccessProject(this.principal, projectScope(project));
      this.seen.projects.set(project.id, seen);
    }
    return seen;
  }

  component(component: Component): boolean {
    let seen = this.seen.components.get(component.id);
    if (seen === undefined) {
      const project = this.catalog.projectsById.get(component.projectId);
      seen = project !== undefined && this.project(project) && canAccessComponent(this.principal, projectScope(project), componentScope(component));
      this.seen.components.set(component.id, seen);
    }
    return seen;
  }

  translation(translation: Translation): boolean {
    const component = this.catalog.componentsById.get(translation.componentId);
    return component !== undefined && this.component(component);
  }

  /** Ids of the visible projects, or null when every project is. */
  projectIds(): number[] | null {
    if (this.seen.visibleProjects === undefined) {
      const visible = this.catalog.projects.filter((p) => this.project(p)).map((p) => p.id);
      this.seen.visibleProjects = visible.length === this.catalog.projects.length ? null : visible;
    }
    return this.seen.visibleProjects;
  }

  /** Restricted components of visible projects that the caller may not see. */
  hiddenComponentIds(): number[] {
    this.seen.hidden ??= this.catalog.components.filter((c) => !this.component(c)).map((c) => c.id);
    return this.seen.hidden;
  }

  /**
   * Ids of the visible translations, or null when every translation is (an anonymous visitor of a site whose projects
   * are all public too: a list of units then reads no list of translations).
   */
  translationIds(): number[] | null {
    const seen = this.translationsSeen();
    if (seen.visible === undefined) {
      if (this.projectIds() === null && this.hiddenComponentIds().length === 0) seen.visible = null;
      else {
        const visible = this.catalog.translations.filter((t) => this.translation(t));
        seen.visible = visible.length === this.catalog.translations.length ? null : visible.map((t) => t.id);
      }
    }
    return seen.visible;
  }

  /**
   * Whether lists of units of the visible translations are best read in id order: the caller sees most translations,
   * so that a page ends the read early where the translation index would gather and sort every unit first.
   */
  unitsById(): boolean {
    const visible = this.translationIds();
    return visible === null || visible.length * 2 >= this.catalog.translations.length;
  }

  /** A permission on a project or component (or a site-wide one without a target). */
  can(permission: ObjectPermission | GlobalPermission | MetaPermission, on?: { project: Project; component?: Component }): boolean {
    const target: PermissionTarget | undefined = on && {
      project: projectScope(on.project),
      component: on.component && componentScope(on.component),
    };
    return hasPermission(this.principal, permission, target);
  }
}
