// The pure permission resolver: a user's team memberships + an object's scope → allowed or denied (Weblate's has_perm).
import { TmsError } from '../domain/errors.js';
import { AccessControl, LanguageSelection, ProjectSelection, type Role, defaultRole } from './defaults.js';
import { type GlobalPermission, type MetaPermission, type ObjectPermission, isGlobalPermission, isObjectPermission } from './permissions.js';

/** A codename that is neither a Weblate permission nor a known check. */
export class UnknownPermissionError extends TmsError<{ permission: string }> {
  constructor(permission: string) {
    super(`unknown permission: ${permission}`, { permission });
  }
}

/** One team the user belongs to, as the resolver needs it. */
export interface TeamMembership {
  name?: string;
  /**
   * Role names (looked up among the built-in roles) or roles with their permissions (custom roles).
   * An unknown role name grants nothing.
   */
  roles: readonly (string | Role)[];
  projectSelection: ProjectSelection;
  /** Project ids, used with selection MANUAL or COMPONENT_LIST. */
  projects?: readonly number[];
  languageSelection: LanguageSelection;
  /** Language codes, used with language selection MANUAL. */
  languages?: readonly string[];
  /**
   * The team's explicit components plus those of its component lists. When there are any, the team
   * grants only on these components (and makes their projects visible).
   */
  components?: readonly { id: number; project: number }[];
  /** The team grants nothing to members without two-factor authentication (bots exempt). */
  enforced2fa?: boolean;
  /** The membership's own language limit (`limit_languages`); such a membership grants nothing language-less. */
  limitLanguages?: readonly string[];
}

/** Who is asking. Treat it as immutable: its resolved permissions are cached per object. */
export interface Principal {
  superuser?: boolean;
  /** Inactive users other than the anonymous one get nothing (they cannot sign in). Default true. */
  active?: boolean;
  /** The anonymous user: stands for unauthenticated requests; inactive by definition. */
  anonymous?: boolean;
  bot?: boolean;
  /** Whether the user has two-factor authentication set up. */
  twoFactor?: boolean;
  /** Editing needs an e-mail address. Default true. */
  hasEmail?: boolean;
  teams: readonly TeamMembership[];
  /** Projects the user is blocked from (UserBlock): no access at all. */
  blockedProjects?: readonly number[];
  /** Components whose contributor agreement the user accepted. */
  agreements?: readonly number[];
}

export interface ProjectScope {
  id: number;
  accessControl: AccessControl;
  enforced2fa?: boolean;
  translationReview?: boolean;
  sourceReview?: boolean;
}

export interface ComponentScope {
  id: number;
  /** Project-wide grants do not reach a restricted component. */
  restricted?: boolean;
  locked?: boolean;
  isGlossary?: boolean;
  /** Monolingual component (has a template file). */
  hasTemplate?: boolean;
  /** "Manage strings": adding and removing strings allowed. Default false, as in Weblate. */
  manageUnits?: boolean;
  /** "Edit base file". Default true. */
  editTemplate?: boolean;
  /** The file format can add / delete units. Default true. */
  formatCanAddUnit?: boolean;
  formatCanDeleteUnit?: boolean;
  /** The file format can update a bilingual source file from an upload. Default false. */
  formatCanUpdateBilingual?: boolean;
  /** Adding new translations: `none` forbids it. Default `add`. */
  newLang?: 'contact' | 'url' | 'add' | 'none';
  /** Default true. */
  enableSuggestions?: boolean;
  suggestionVoting?: boolean;
  suggestionAutoaccept?: number;
  /** Has an intermediate language file. */
  intermediate?: boolean;
  /** Has a contributor agreement users must accept. */
  agreement?: boolean;
}

export interface TranslationScope {
  language: string;
  isSource?: boolean;
  readOnly?: boolean;
}

export interface UnitScope {
  readOnly?: boolean;
  approved?: boolean;
}

/**
 * What the permission is checked on: the most specific of unit, translation, component, project.
 * A unit is checked through its translation, so a unit needs a translation, and a translation a component.
 */
export interface PermissionTarget {
  project: ProjectScope;
  component?: ComponentScope;
  translation?: TranslationScope;
  unit?: UnitScope;
  /** comment.resolve/comment.delete/suggestion.delete: the item was written by this user. */
  ownItem?: boolean;
  /** unit.check: the check being dismissed is enforced. */
  enforcedCheck?: boolean;
}

export type DenyReason =
  | 'inactive'
  | 'no-permission'
  | 'superuser-only'
  | 'no-email'
  | 'locked'
  | 'agreement'
  | 'read-only'
  | 'review-needed'
  | 'reviews-disabled'
  | 'template'
  | 'suggestions-only'
  | 'suggestions-disabled'
  | 'voting-disabled'
  | 'units-disabled'
  | 'add-to-source'
  | 'not-supported'
  | 'source'
  | 'no-new-language'
  | 'enforced-check';

export type PermissionResult = { allowed: true } | { allowed: false; reason: DenyReason };

const ALLOWED: PermissionResult = { allowed: true };
const deny = (reason: DenyReason): PermissionResult => ({ allowed: false, reason });

interface Entry {
  permissions: ReadonlySet<string>;
  /** null: all languages. */
  languages: ReadonlySet<string> | null;
  membershipLimited: boolean;
}

const BLOCKED = 'blocked';

/** A user's memberships turned into lookups (Weblate's permission cache). */
interface ResolvedPermissions {
  /** Keyed by project id, or by −selection for selections ALL / ALL_PUBLIC / ALL_PROTECTED. */
  projects: Map<number, Entry[] | typeof BLOCKED>;
  components: Map<number, Entry[]>;
  global: ReadonlySet<string>;
}

const resolved = new WeakMap<Principal, ResolvedPermissions>();

function rolePermissions(roles: readonly (string | Role)[]): Set<string> {
  const permissions = new Set<string>();
  for (const role of roles) {
    const definition = typeof role === 'string' ? defaultRole(role) : role;
    for (const permission of definition?.permissions ?? []) permissions.add(permission);
  }
  return permissions;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function resolve(principal: Principal): ResolvedPermissions {
  const cached = resolved.get(principal);
  if (cached) return cached;
  const projects = new Map<number, Entry[] | typeof BLOCKED>();
  const projectLists = new Map<number, Entry[]>();
  const components = new Map<number, Entry[]>();
  const global = new Set<string>();
  for (const team of principal.teams) {
    if (team.enforced2fa && !principal.twoFactor && !principal.bot) continue;
    let languages: Set<string> | null = team.languageSelection === LanguageSelection.ALL ? null : new Set(team.languages ?? []);
    const membershipLimited = (team.limitLanguages?.length ?? 0) > 0;
    if (membershipLimited) {
      const limit = new Set(team.limitLanguages);
      languages = languages === null ? limit : new Set([...languages].filter((code) => limit.has(code)));
      if (languages.size === 0) continue;
    }
    const permissions = rolePermissions(team.roles);
    if (!membershipLimited) for (const permission of permissions) if (isGlobalPermission(permission)) global.add(permission);
    const entry: Entry = { permissions, languages, membershipLimited };
    if (team.components && team.components.length > 0) {
      for (const component of team.components) {
        push(components, component.id, entry);
        // Visibility of the project only.
        push(projectLists, component.project, { permissions: new Set<string>(), languages, membershipLimited });
      }
      continue;
    }
    const selection = team.projectSelection;
    if (selection === ProjectSelection.ALL || selection === ProjectSelection.ALL_PUBLIC || selection === ProjectSelection.ALL_PROTECTED) {
      push(projectLists, -selection, entry);
    } else {
      for (const project of team.projects ?? []) push(projectLists, project, entry);
    }
  }
  for (const [key, list] of projectLists) projects.set(key, list);
  for (const project of principal.blockedProjects ?? []) projects.set(project, BLOCKED);
  const result = { projects, components, global };
  resolved.set(principal, result);
  return result;
}

function entriesOf(projects: ResolvedPermissions['projects'], key: number): Entry[] {
  const list = projects.get(key);
  return list === undefined || list === BLOCKED ? [] : list;
}

/** The entries that apply to a project (Weblate's `get_project_permissions`). */
function projectEntries(principal: Principal, project: ProjectScope): Entry[] {
  const { projects } = resolve(principal);
  if (projects.get(project.id) === BLOCKED) return [];
  const result = [...entriesOf(projects, project.id)];
  if (project.accessControl === AccessControl.PUBLIC) result.push(...entriesOf(projects, -ProjectSelection.ALL_PUBLIC));
  else if (project.accessControl === AccessControl.PROTECTED) {
    result.push(...entriesOf(projects, -ProjectSelection.ALL_PROTECTED));
  }
  result.push(...entriesOf(projects, -ProjectSelection.ALL));
  return result;
}

function grants(entries: readonly Entry[], permission: string, language: string | undefined): boolean {
  return entries.some(
    (entry) =>
      entry.permissions.has(permission) && (language === undefined ? !entry.membershipLimited : entry.languages === null || entry.languages.has(language)),
  );
}

function isInactive(principal: Principal): boolean {
  return principal.active === false && !principal.anonymous;
}

/** The generic check on the most specific object of the target (Weblate's `check_permission`). */
function generic(principal: Principal, permission: string, target: PermissionTarget): boolean {
  if (principal.superuser) return true;
  const { project, component, translation } = target;
  if (project.enforced2fa && !principal.twoFactor && !principal.bot) return false;
  const language = component ? translation?.language : undefined;
  const fromProject = () => grants(projectEntries(principal, project), permission, language);
  if (!component) return fromProject();
  const fromComponent = () => grants(resolve(principal).components.get(component.id) ?? [], permission, language);
  return (!component.restricted && fromProject()) || fromComponent();
}

/** Weblate's `check_can_edit`: the conditions every kind of editing shares. */
function checkCanEdit(principal: Principal, permission: string, target: PermissionTarget, isVote = false): PermissionResult {
  const { component, translation } = target;
  if (!principal.anonymous && principal.hasEmail === false) return deny('no-email');
  if (component?.locked) return deny('locked');
  if (component?.agreement && !principal.bot && !principal.agreements?.includes(component.id)) return deny('agreement');
  if (!generic(principal, permission, target)) return deny('no-permission');
  if (translation?.isSource && component?.hasTemplate && !generic(principal, 'unit.template', target)) {
    return deny('template');
  }
  if (isVote && component && !component.suggestionVoting) return deny('voting-disabled');
  if (!isVote && translation && component?.suggestionVoting && (component.suggestionAutoaccept ?? 0) > 0 && !generic(principal, 'unit.override', target)) {
    return deny('suggestions-only');
  }
  return ALLOWED;
}

function reviewEnabled(target: PermissionTarget): boolean {
  const { project, translation } = target;
  if (translation && target.component) return Boolean(translation.isSource ? project.sourceReview : project.translationReview);
  return Boolean(project.sourceReview || project.translationReview);
}

function checkUnitReview(principal: Principal, target: PermissionTarget, skipEnabled = false): PermissionResult {
  if (target.translation?.readOnly) return deny('read-only');
  if (!skipEnabled && !reviewEnabled(target)) return deny('reviews-disabled');
  return checkCanEdit(principal, 'unit.review', target);
}

function checkEditApproved(principal: Principal, permission: string, target: PermissionTarget): PermissionResult {
  const { unit, translation, component } = target;
  if (unit?.readOnly || translation?.readOnly) return deny('read-only');
  if (unit?.approved && !checkUnitReview(principal, target, true).allowed) return deny('review-needed');
  return checkCanEdit(principal, component?.isGlossary ? 'glossary.edit' : permission, target);
}

function checkSuggestionAdd(principal: Principal, permission: string, target: PermissionTarget): PermissionResult {
  const { component, translation } = target;
  if (component && component.enableSuggestions === false) return deny('suggestions-disabled');
  if (translation?.readOnly) return deny('read-only');
  if (component?.agreement && !principal.bot && !principal.agreements?.includes(component.id)) return deny('agreement');
  return generic(principal, permission, target) ? ALLOWED : deny('no-permission');
}

function checkManageUnits(target: PermissionTarget): PermissionResult {
  const { component, translation } = target;
  if (!component || !translation) return deny('not-supported');
  if (!translation.isSource && component.hasTemplate) return deny('add-to-source');
  if (!component.manageUnits || (component.hasTemplate && component.editTemplate === false)) {
    return deny('units-disabled');
  }
  return ALLOWED;
}

function checkUpload(principal: Principal, target: PermissionTarget): PermissionResult {
  const { component, translation } = target;
  // Without a translation Weblate asks each child translation; here the plain grant decides.
  if (!component || !translation) return generic(principal, 'upload.perform', target) ? ALLOWED : deny('no-permission');
  if (translation.isSource && !component.hasTemplate) {
    if (!component.formatCanUpdateBilingual) return deny('not-supported');
    return generic(principal, 'source.edit', target) ? ALLOWED : deny('no-permission');
  }
  const base = checkCanEdit(principal, component.isGlossary ? 'glossary.upload' : 'upload.perform', target);
  if (!base.allowed) return base;
  if (checkEditApproved(principal, 'unit.edit', target).allowed) return ALLOWED;
  if (checkSuggestionAdd(principal, 'suggestion.add', target).allowed) return ALLOWED;
  if (checkSuggestionAdd(principal, 'unit.add', target).allowed) return ALLOWED;
  if (translation.isSource && generic(principal, 'source.edit', target)) return ALLOWED;
  return deny('no-permission');
}

function genericResult(principal: Principal, permission: string, target: PermissionTarget): PermissionResult {
  return generic(principal, permission, target) ? ALLOWED : deny('no-permission');
}

type Special = (principal: Principal, permission: string, target: PermissionTarget) => PermissionResult;

// Permissions with extra logic before or instead of the generic check (Weblate's SPECIALS).
const SPECIALS: Readonly<Record<string, Special>> = {
  'comment.resolve': checkOwnItem,
  'comment.delete': checkOwnItem,
  'suggestion.delete': checkOwnItem,
  'unit.check': (principal, permission, target) => (target.enforcedCheck ? deny('enforced-check') : genericResult(principal, permission, target)),
  'unit.edit': checkEditApproved,
  'suggestion.accept': checkEditApproved,
  'unit.review': (principal, _permission, target) => checkUnitReview(principal, target),
  'unit.add': (principal, permission, target) => {
    const manage = checkManageUnits(target);
    if (!manage.allowed) return manage;
    if (target.component?.formatCanAddUnit === false) return deny('not-supported');
    return checkCanEdit(principal, target.component?.isGlossary ? 'glossary.add' : permission, target);
  },
  'unit.delete': (principal, permission, target) => {
    const manage = checkManageUnits(target);
    if (!manage.allowed) return manage;
    if (target.component?.formatCanDeleteUnit === false) return deny('not-supported');
    return checkCanEdit(principal, target.component?.isGlossary ? 'glossary.delete' : permission, target);
  },
  'translation.add': (principal, permission, target) => {
    if (target.component?.newLang === 'none') return deny('no-new-language');
    if (target.component?.locked) return deny('locked');
    return genericResult(principal, permission, { project: target.project, component: target.component });
  },
  'translation.auto': checkAutomatic,
  'unit.bulk_edit': checkAutomatic,
  'translation.delete': (principal, permission, target) => (target.translation?.isSource ? deny('source') : genericResult(principal, permission, target)),
  'suggestion.add': checkSuggestionAdd,
  'suggestion.vote': (principal, permission, target) => checkCanEdit(principal, permission, target, true),
  'upload.perform': (principal, _permission, target) => checkUpload(principal, target),
  'machinery.view': (principal, permission, target) => {
    if (target.translation?.isSource && !target.component?.intermediate) return deny('source');
    if (!generic(principal, permission, target)) return deny('no-permission');
    const edit = checkEditApproved(principal, 'unit.edit', target);
    return edit.allowed ? edit : checkSuggestionAdd(principal, 'suggestion.add', target);
  },
  'memory.edit': checkMemory,
  'memory.delete': checkMemory,
  'meta:vcs.status': (principal, _permission, target) =>
    ['vcs.push', 'vcs.commit', 'vcs.reset', 'vcs.update'].some((vcs) => generic(principal, vcs, target)) ? ALLOWED : deny('no-permission'),
};

function checkOwnItem(principal: Principal, permission: string, target: PermissionTarget): PermissionResult {
  if (target.ownItem && !principal.anonymous) return ALLOWED;
  return genericResult(principal, permission, target);
}

function checkAutomatic(principal: Principal, permission: string, target: PermissionTarget): PermissionResult {
  const { translation, component } = target;
  if (translation?.isSource && !component?.intermediate) return deny('source');
  if (translation?.readOnly) return deny('read-only');
  return checkCanEdit(principal, permission, target);
}

function checkMemory(principal: Principal, permission: string, target: PermissionTarget): PermissionResult {
  if (generic(principal, permission, target) || hasGlobalPermission(principal, 'memory.manage')) return ALLOWED;
  return deny('no-permission');
}

function hasGlobalPermission(principal: Principal, permission: GlobalPermission): boolean {
  if (isInactive(principal)) return false;
  return Boolean(principal.superuser) || resolve(principal).global.has(permission);
}

/**
 * Decide a permission with the reason for a refusal. Site-wide permissions ignore the target.
 * Object permissions need a target; without one only a superuser passes (`reports.view` and
 * `change.download` are site-wide reports then). Superusers pass every grant but not the state
 * checks: a locked component or a read-only string refuses them too, as in Weblate.
 *
 * @example checkPermission(translator, 'vcs.push', { project, component }) // { allowed: false, reason: 'no-permission' }
 */
export function checkPermission(
  principal: Principal,
  permission: ObjectPermission | GlobalPermission | MetaPermission,
  target?: PermissionTarget,
): PermissionResult {
  const special = SPECIALS[permission];
  if (!special && !isObjectPermission(permission) && !isGlobalPermission(permission)) {
    throw new UnknownPermissionError(permission);
  }
  if (isInactive(principal)) return deny('inactive');
  if (isGlobalPermission(permission)) return hasGlobalPermission(principal, permission) ? ALLOWED : deny('no-permission');
  if (!target) return principal.superuser ? ALLOWED : deny('superuser-only');
  return special ? special(principal, permission, target) : genericResult(principal, permission, target);
}

/**
 * Whether the principal may do `permission` on the target (see `checkPermission`).
 *
 * @example hasPermission(anonymous, 'translation.download', { project: publicProject }) // true
 */
export function hasPermission(principal: Principal, permission: ObjectPermission | GlobalPermission | MetaPermission, target?: PermissionTarget): boolean {
  return checkPermission(principal, permission, target).allowed;
}

/** Whether the project is visible: superuser, or any team entry applies to it (even one without permissions). */
export function canAccessProject(principal: Principal, project: ProjectScope): boolean {
  if (isInactive(principal)) return false;
  return Boolean(principal.superuser) || projectEntries(principal, project).length > 0;
}

/** Whether the component is visible: its project is, and it is not restricted or a team names it. */
export function canAccessComponent(principal: Principal, project: ProjectScope, component: ComponentScope): boolean {
  if (!canAccessProject(principal, project)) return false;
  return Boolean(principal.superuser) || !component.restricted || resolve(principal).components.has(component.id);
}
