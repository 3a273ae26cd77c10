import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS_TEAMS,
  AccessControl,
  DEFAULT_ROLES,
  DEFAULT_TEAMS,
  LanguageSelection,
  NEW_USER_TEAMS,
  PROJECT_TEAMS,
  ProjectSelection,
  defaultRole,
  defaultTeams,
  projectTeamsToCreate,
} from './defaults.js';
import {
  GLOBAL_PERMISSIONS,
  PERMISSIONS,
  TRANSLATE_PERMISSIONS,
  filterPermissions,
  isGlobalPermission,
  isObjectPermission,
  permissionName,
} from './permissions.js';

describe('permissions', () => {
  it('lists 52 object permissions and 18 site-wide ones, each once', () => {
    const object = PERMISSIONS.map((permission) => permission.codename);
    const global = GLOBAL_PERMISSIONS.map((permission) => permission.codename);
    expect(object).toHaveLength(52);
    expect(global).toHaveLength(18);
    expect(new Set([...object, ...global]).size).toBe(70);
    expect(object[0]).toBe('change.download');
    expect(object.at(-1)).toBe('workspace.edit_members');
    expect(object.indexOf('unit.bulk_edit')).toBe(object.indexOf('unit.review') + 1);
    expect(global.slice(0, 3)).toEqual(['management.use', 'management.configure', 'project.add']);
    expect(object).not.toContain('billing.view');
  });

  it('tells the two kinds apart and names them', () => {
    expect(isObjectPermission('vcs.push')).toBe(true);
    expect(isGlobalPermission('vcs.push')).toBe(false);
    expect(isGlobalPermission('memory.manage')).toBe(true);
    expect(isObjectPermission('meta:vcs.status')).toBe(false);
    expect(permissionName('vcs.push')).toBe('Push change from the internal repository');
    expect(permissionName('project.add')).toBe('Add new projects (site-wide permission)');
  });

  it('builds TRANSLATE_PERMS and prefix filters from the list', () => {
    expect(TRANSLATE_PERMISSIONS).toHaveLength(10);
    expect(filterPermissions('vcs.')).toEqual(['vcs.access', 'vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.view', 'vcs.update']);
    expect(filterPermissions('translation.', ['translation.auto'])).toEqual([
      'translation.add',
      'translation.delete',
      'translation.download',
      'translation.add_more',
    ]);
  });
});

describe('default roles', () => {
  it('are the 18 newest roles, in order, with the documented sizes', () => {
    expect(DEFAULT_ROLES.map((role) => [role.name, role.permissions.length])).toEqual([
      ['Administration', 49],
      ['Edit source', 12],
      ['Add suggestion', 1],
      ['Access repository', 3],
      ['Manage glossary', 5],
      ['Power user', 19],
      ['Translation coordinator', 28],
      ['Review strings', 13],
      ['Translate', 10],
      ['Manage languages', 4],
      ['Bulk editing', 1],
      ['Automatic translation', 1],
      ['Manage translation memory', 2],
      ['Manage screenshots', 3],
      ['Manage repository', 7],
      ['Workspace administration', 3],
      ['Add workspace projects', 1],
      ['Add new projects', 2],
    ]);
  });

  it('hold known permissions without repeats', () => {
    for (const role of DEFAULT_ROLES) {
      expect(new Set(role.permissions).size, role.name).toBe(role.permissions.length);
      for (const permission of role.permissions) {
        expect(isObjectPermission(permission) || isGlobalPermission(permission), permission).toBe(true);
      }
    }
  });

  it('grant what the notes say', () => {
    const administration = defaultRole('Administration')!.permissions;
    expect(administration).toContain('announcement.add');
    expect(administration).toContain('unit.bulk_edit');
    expect(administration.some((permission) => permission.startsWith('workspace.'))).toBe(false);
    expect(administration.some((permission) => isGlobalPermission(permission))).toBe(false);
    const power = defaultRole('Power user')!.permissions;
    expect(power).toContain('glossary.upload');
    expect(power).not.toContain('glossary.terminology');
    expect(power).not.toContain('vcs.push');
    expect(defaultRole('Manage repository')!.permissions).toEqual([
      'vcs.access',
      'vcs.commit',
      'vcs.push',
      'vcs.reset',
      'vcs.view',
      'vcs.update',
      'component.lock',
    ]);
    expect(defaultRole('Add new projects')!.permissions).toEqual(['project.add', 'workspace.add']);
    expect(defaultRole('Billing')).toBeUndefined();
  });
});

describe('default teams', () => {
  it('are the six site-wide teams with their roles and selections', () => {
    expect(DEFAULT_TEAMS.map((team) => [team.name, team.roles, team.projectSelection, team.languageSelection])).toEqual([
      ['Guests', ['Add suggestion', 'Access repository'], ProjectSelection.ALL_PUBLIC, LanguageSelection.ALL],
      ['Viewers', [], ProjectSelection.ALL_PROTECTED, LanguageSelection.ALL],
      ['Users', ['Power user'], ProjectSelection.ALL_PUBLIC, LanguageSelection.ALL],
      ['Reviewers', ['Review strings'], ProjectSelection.ALL, LanguageSelection.ALL],
      ['Managers', ['Administration'], ProjectSelection.ALL, LanguageSelection.ALL],
      ['Project creators', ['Add new projects'], ProjectSelection.ALL, LanguageSelection.ALL],
    ]);
    expect(defaultTeams(ANONYMOUS_TEAMS).map((team) => team.name)).toEqual(['Guests', 'Viewers']);
    expect(defaultTeams(NEW_USER_TEAMS).map((team) => team.name)).toEqual(['Viewers', 'Users']);
  });

  it('give every project team one built-in role without site-wide or workspace permissions', () => {
    expect(PROJECT_TEAMS).toHaveLength(11);
    for (const team of PROJECT_TEAMS) {
      const role = defaultRole(team.role);
      expect(role, team.name).toBeDefined();
      expect(
        role!.permissions.some((p) => isGlobalPermission(p) || p.startsWith('workspace.')),
        team.name,
      ).toBe(false);
    }
  });
});

describe('projectTeamsToCreate', () => {
  const settings = (accessControl: AccessControl, translationReview = false, sourceReview = false) => ({
    accessControl,
    translationReview,
    sourceReview,
  });
  const names = (teams: { name: string }[]) => teams.map((team) => team.name);
  const allButReview = PROJECT_TEAMS.map((team) => team.name).filter((name) => name !== 'Review');

  it('creates Administration (and Review with reviews on) for a new public project', () => {
    expect(names(projectTeamsToCreate({ project: settings(AccessControl.PUBLIC) }))).toEqual(['Administration']);
    expect(names(projectTeamsToCreate({ project: settings(AccessControl.PUBLIC, true) }))).toEqual(['Administration', 'Review']);
    expect(projectTeamsToCreate({ project: settings(AccessControl.PUBLIC) })[0]).toEqual({
      name: 'Administration',
      role: 'Administration',
    });
  });

  it('creates every team for a new protected or private project, Review only with reviews on', () => {
    expect(names(projectTeamsToCreate({ project: settings(AccessControl.PROTECTED) }))).toEqual(allButReview);
    expect(names(projectTeamsToCreate({ project: settings(AccessControl.PRIVATE, false, true) }))).toHaveLength(11);
  });

  it('creates nothing for custom access control or an unchanged project', () => {
    expect(projectTeamsToCreate({ project: settings(AccessControl.CUSTOM) })).toEqual([]);
    const same = settings(AccessControl.PROTECTED);
    expect(projectTeamsToCreate({ project: same, previous: same })).toEqual([]);
  });

  it('adds the protected teams when a public project becomes protected, not on other moves', () => {
    const change = (from: AccessControl, to: AccessControl) => names(projectTeamsToCreate({ project: settings(to), previous: settings(from) }));
    expect(change(AccessControl.PUBLIC, AccessControl.PROTECTED)).toEqual(allButReview);
    expect(change(AccessControl.CUSTOM, AccessControl.PRIVATE)).toEqual(allButReview);
    expect(change(AccessControl.PROTECTED, AccessControl.PRIVATE)).toEqual([]);
    expect(change(AccessControl.PRIVATE, AccessControl.PUBLIC)).toEqual([]);
    expect(change(AccessControl.PUBLIC, AccessControl.CUSTOM)).toEqual([]);
  });

  it('adds Review when reviews are switched on', () => {
    const result = projectTeamsToCreate({
      project: settings(AccessControl.PUBLIC, true),
      previous: settings(AccessControl.PUBLIC),
    });
    expect(names(result)).toEqual(['Administration', 'Review']);
  });

  it('adds only the teams of newly created roles', () => {
    const project = settings(AccessControl.PRIVATE);
    const newRoles = new Set(['Bulk editing']);
    expect(names(projectTeamsToCreate({ project, previous: project, newRoles }))).toEqual(['Bulk editing']);
    const publicProject = settings(AccessControl.PUBLIC);
    expect(projectTeamsToCreate({ project: publicProject, previous: publicProject, newRoles })).toEqual([]);
  });
});
