// Weblate's built-in roles, site-wide teams and per-project teams, and the rule that creates the latter.
import { type GlobalPermission, type ObjectPermission, PERMISSIONS, TRANSLATE_PERMISSIONS, filterPermissions } from './permissions.js';

/** A named set of permissions that teams grant. */
export interface Role {
  name: string;
  permissions: readonly (ObjectPermission | GlobalPermission)[];
}

/** A team's `project_selection`. */
export const ProjectSelection = {
  /** "As defined": the team's explicit project list. */
  MANUAL: 0,
  ALL: 1,
  /** Projects of the team's component lists (copied into the project list on save). */
  COMPONENT_LIST: 2,
  ALL_PUBLIC: 3,
  ALL_PROTECTED: 4,
} as const;
export type ProjectSelection = (typeof ProjectSelection)[keyof typeof ProjectSelection];

/** A team's `language_selection` (only these two exist for languages). */
export const LanguageSelection = { MANUAL: 0, ALL: 1 } as const;
export type LanguageSelection = (typeof LanguageSelection)[keyof typeof LanguageSelection];

/** A project's `access_control`. */
export const AccessControl = { PUBLIC: 0, PROTECTED: 1, PRIVATE: 100, CUSTOM: 200 } as const;
export type AccessControl = (typeof AccessControl)[keyof typeof AccessControl];

/** New projects are public (Weblate's DEFAULT_ACCESS_CONTROL). */
export const DEFAULT_ACCESS_CONTROL: AccessControl = AccessControl.PUBLIC;

const GLOSSARY_MANAGE: readonly ObjectPermission[] = ['glossary.add', 'glossary.edit', 'glossary.delete', 'glossary.upload'];

/** The built-in roles, newest order. Weblate resets their permissions on every migration. */
export const DEFAULT_ROLES: readonly Role[] = [
  {
    name: 'Administration',
    permissions: PERMISSIONS.map((permission) => permission.codename).filter((codename) => !codename.startsWith('workspace.')),
  },
  { name: 'Edit source', permissions: [...TRANSLATE_PERMISSIONS, 'unit.template', 'source.edit'] },
  { name: 'Add suggestion', permissions: ['suggestion.add'] },
  { name: 'Access repository', permissions: ['translation.download', 'vcs.access', 'vcs.view'] },
  { name: 'Manage glossary', permissions: filterPermissions('glossary.') },
  {
    name: 'Power user',
    permissions: [...TRANSLATE_PERMISSIONS, 'translation.add', 'unit.template', 'suggestion.delete', 'vcs.access', 'vcs.view', ...GLOSSARY_MANAGE],
  },
  {
    name: 'Translation coordinator',
    permissions: [
      ...TRANSLATE_PERMISSIONS,
      'announcement.add',
      'announcement.delete',
      'translation.add',
      'unit.template',
      'suggestion.delete',
      'vcs.access',
      'vcs.view',
      'unit.review',
      'unit.override',
      'comment.resolve',
      ...filterPermissions('glossary.'),
      ...filterPermissions('screenshot.'),
    ],
  },
  { name: 'Review strings', permissions: [...TRANSLATE_PERMISSIONS, 'unit.review', 'unit.override', 'comment.resolve'] },
  { name: 'Translate', permissions: [...TRANSLATE_PERMISSIONS] },
  { name: 'Manage languages', permissions: filterPermissions('translation.', ['translation.auto']) },
  { name: 'Bulk editing', permissions: ['unit.bulk_edit'] },
  { name: 'Automatic translation', permissions: ['translation.auto'] },
  { name: 'Manage translation memory', permissions: filterPermissions('memory.') },
  { name: 'Manage screenshots', permissions: filterPermissions('screenshot.') },
  { name: 'Manage repository', permissions: [...filterPermissions('vcs.'), 'component.lock'] },
  { name: 'Workspace administration', permissions: filterPermissions('workspace.') },
  { name: 'Add workspace projects', permissions: ['workspace.add_project'] },
  { name: 'Add new projects', permissions: ['project.add', 'workspace.add'] },
];

/** A built-in role by name. */
export function defaultRole(name: string): Role | undefined {
  return DEFAULT_ROLES.find((role) => role.name === name);
}

/** A team definition: which roles it grants, where. */
export interface TeamDefinition {
  name: string;
  /** Role names. */
  roles: readonly string[];
  projectSelection: ProjectSelection;
  languageSelection: LanguageSelection;
}

/** The built-in site-wide teams (all internal, all languages). */
export const DEFAULT_TEAMS: readonly TeamDefinition[] = [
  {
    name: 'Guests',
    roles: ['Add suggestion', 'Access repository'],
    projectSelection: ProjectSelection.ALL_PUBLIC,
    languageSelection: LanguageSelection.ALL,
  },
  { name: 'Viewers', roles: [], projectSelection: ProjectSelection.ALL_PROTECTED, languageSelection: LanguageSelection.ALL },
  { name: 'Users', roles: ['Power user'], projectSelection: ProjectSelection.ALL_PUBLIC, languageSelection: LanguageSelection.ALL },
  { name: 'Reviewers', roles: ['Review strings'], projectSelection: ProjectSelection.ALL, languageSelection: LanguageSelection.ALL },
  { name: 'Managers', roles: ['Administration'], projectSelection: ProjectSelection.ALL, languageSelection: LanguageSelection.ALL },
  {
    name: 'Project creators',
    roles: ['Add new projects'],
    projectSelection: ProjectSelection.ALL,
    languageSelection: LanguageSelection.ALL,
  },
];

/** Teams a new signed-up user joins (by the `^.*$` e-mail rules). */
export const NEW_USER_TEAMS: readonly string[] = ['Users', 'Viewers'];
/** Teams of the anonymous user, which stands for every unauthenticated request. */
export const ANONYMOUS_TEAMS: readonly string[] = ['Guests', 'Viewers'];
/** The anonymous user's username (Weblate's ANONYMOUS_USER_NAME). */
export const ANONYMOUS_USER_NAME = 'anonymous';

/** The built-in team definitions with these names, e.g. `defaultTeams(ANONYMOUS_TEAMS)` for the anonymous user. */
export function defaultTeams(names: readonly string[]): TeamDefinition[] {
  return DEFAULT_TEAMS.filter((team) => names.includes(team.name));
}

/** The per-project teams (`ACL_GROUPS`, newest): team name → its single role. */
export const PROJECT_TEAMS: readonly { name: string; role: string }[] = [
  { name: 'Administration', role: 'Administration' },
  { name: 'Review', role: 'Review strings' },
  { name: 'Translate', role: 'Translate' },
  { name: 'Sources', role: 'Edit source' },
  { name: 'Languages', role: 'Manage languages' },
  { name: 'Glossary', role: 'Manage glossary' },
  { name: 'Memory', role: 'Manage translation memory' },
  { name: 'Screenshots', role: 'Manage screenshots' },
  { name: 'Bulk editing', role: 'Bulk editing' },
  { name: 'Automatic translation', role: 'Automatic translation' },
  { name: 'VCS', role: 'Manage repository' },
];

/** The settings of a project that decide its teams. */
export interface ProjectAccessSettings {
  accessControl: AccessControl;
  translationReview: boolean;
  sourceReview: boolean;
}

export interface ProjectTeamChange {
  /** The saved project's settings. */
  project: ProjectAccessSettings;
  /** The settings before this save; leave out for a new project or one that has no teams yet. */
  previous?: ProjectAccessSettings;
  /** Role names that were just created (when new built-in roles appear, only their teams are added). */
  newRoles?: ReadonlySet<string>;
}

/**
 * Which per-project teams to get-or-create after a project is saved (Weblate's `setup_project_groups`).
 * Every team is internal, selection "as defined" with just this project, all languages, one role.
 * Teams are never deleted, and an existing team keeps its roles.
 *
 * @example projectTeamsToCreate({ project: { accessControl: 0, translationReview: false, sourceReview: false } })
 *   // [{ name: 'Administration', role: 'Administration' }]
 */
export function projectTeamsToCreate(change: ProjectTeamChange): { name: string; role: string }[] {
  const { project, previous, newRoles } = change;
  const created = previous === undefined;
  const before = previous ?? project;
  const reviewChanged = before.translationReview !== project.translationReview || before.sourceReview !== project.sourceReview;
  const hasNewRoles = newRoles !== undefined && newRoles.size > 0;
  if (before.accessControl === project.accessControl && !reviewChanged && !created && !hasNewRoles) return [];
  if (project.accessControl === AccessControl.CUSTOM) return [];

  let teams =
    project.accessControl === AccessControl.PUBLIC
      ? PROJECT_TEAMS.filter((team) => team.name === 'Administration' || team.name === 'Review')
      : [...PROJECT_TEAMS];
  if (!project.sourceReview && !project.translationReview) teams = teams.filter((team) => team.name !== 'Review');

  if (hasNewRoles) {
    teams = teams.filter((team) => newRoles.has(team.role));
  } else if (
    !created &&
    !reviewChanged &&
    (project.accessControl === AccessControl.PUBLIC || before.accessControl === AccessControl.PROTECTED || before.accessControl === AccessControl.PRIVATE)
  ) {
    // Public teams always exist already, and protected ↔ private needs the same teams.
    return [];
  }
  return teams.map((team) => ({ ...team }));
}
