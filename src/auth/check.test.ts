import { describe, expect, it } from 'vitest';
import {
  type ComponentScope,
  type PermissionTarget,
  type Principal,
  type ProjectScope,
  type TeamMembership,
  canAccessComponent,
  canAccessProject,
  checkPermission,
  hasPermission,
} from './check.js';
import { ANONYMOUS_TEAMS, AccessControl, LanguageSelection, NEW_USER_TEAMS, PROJECT_TEAMS, ProjectSelection, defaultTeams } from './defaults.js';

const publicProject: ProjectScope = { id: 1, accessControl: AccessControl.PUBLIC };
const protectedProject: ProjectScope = { id: 2, accessControl: AccessControl.PROTECTED };
const privateProject: ProjectScope = { id: 3, accessControl: AccessControl.PRIVATE };
const reviewedProject: ProjectScope = { id: 4, accessControl: AccessControl.PRIVATE, translationReview: true };

const component = (id: number, extra: Partial<ComponentScope> = {}): ComponentScope => ({ id, ...extra });
const on = (project: ProjectScope, extra: Partial<PermissionTarget> = {}): PermissionTarget => ({
  project,
  component: component(10 * project.id),
  translation: { language: 'de' },
  unit: {},
  ...extra,
});

/** A per-project team as `projectTeamsToCreate` makes it. */
function projectTeam(project: ProjectScope, name: string, extra: Partial<TeamMembership> = {}): TeamMembership {
  const team = PROJECT_TEAMS.find((candidate) => candidate.name === name)!;
  return {
    name,
    roles: [team.role],
    projectSelection: ProjectSelection.MANUAL,
    projects: [project.id],
    languageSelection: LanguageSelection.ALL,
    ...extra,
  };
}

const user = (teams: TeamMembership[], extra: Partial<Principal> = {}): Principal => ({
  teams: [...defaultTeams(NEW_USER_TEAMS), ...teams],
  ...extra,
});
const anonymous: Principal = { anonymous: true, active: false, teams: defaultTeams(ANONYMOUS_TEAMS) };

describe('a translator (project Translate team on a private project)', () => {
  const translator = user([projectTeam(privateProject, 'Translate')]);
  const target = on(privateProject);

  it('can edit strings, suggest, upload and download', () => {
    for (const permission of ['unit.edit', 'suggestion.add', 'upload.perform', 'translation.download'] as const) {
      expect(checkPermission(translator, permission, target), permission).toEqual({ allowed: true });
    }
    expect(canAccessProject(translator, privateProject)).toBe(true);
  });

  it('cannot commit, push, reset, lock, add languages or review', () => {
    for (const permission of ['vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.update', 'component.lock'] as const) {
      expect(checkPermission(translator, permission, { project: privateProject, component: target.component }), permission).toEqual({
        allowed: false,
        reason: 'no-permission',
      });
    }
    expect(hasPermission(translator, 'meta:vcs.status', target)).toBe(false);
    expect(hasPermission(translator, 'translation.add', target)).toBe(false);
    expect(checkPermission(translator, 'unit.review', target)).toEqual({ allowed: false, reason: 'reviews-disabled' });
    expect(hasPermission(translator, 'project.add')).toBe(false);
  });

  it('gets nothing on another private project, which it cannot even see', () => {
    const other: ProjectScope = { id: 30, accessControl: AccessControl.PRIVATE };
    expect(hasPermission(translator, 'unit.edit', on(other))).toBe(false);
    expect(canAccessProject(translator, other)).toBe(false);
  });

  it('is stopped by a lock, a read-only string, an approved string and a source string', () => {
    expect(checkPermission(translator, 'unit.edit', on(privateProject, { component: component(30, { locked: true }) }))).toEqual({
      allowed: false,
      reason: 'locked',
    });
    expect(checkPermission(translator, 'unit.edit', on(privateProject, { unit: { readOnly: true } }))).toEqual({
      allowed: false,
      reason: 'read-only',
    });
    expect(checkPermission(translator, 'unit.edit', on(privateProject, { translation: { language: 'de', readOnly: true } }))).toEqual({
      allowed: false,
      reason: 'read-only',
    });
    expect(checkPermission(translator, 'unit.edit', on(privateProject, { unit: { approved: true } }))).toEqual({
      allowed: false,
      reason: 'review-needed',
    });
    const monolingualSource = on(privateProject, {
      component: component(30, { hasTemplate: true }),
      translation: { language: 'en', isSource: true },
    });
    expect(checkPermission(translator, 'unit.edit', monolingualSource)).toEqual({ allowed: false, reason: 'template' });
  });

  it('needs an e-mail address and an accepted contributor agreement to edit', () => {
    expect(checkPermission(user([projectTeam(privateProject, 'Translate')], { hasEmail: false }), 'unit.edit', target)).toEqual({
      allowed: false,
      reason: 'no-email',
    });
    const withAgreement = on(privateProject, { component: component(30, { agreement: true }) });
    expect(checkPermission(translator, 'unit.edit', withAgreement)).toEqual({ allowed: false, reason: 'agreement' });
    const agreed = user([projectTeam(privateProject, 'Translate')], { agreements: [30] });
    expect(hasPermission(agreed, 'unit.edit', withAgreement)).toBe(true);
  });

  it('can only suggest where voting with auto-accept is on', () => {
    const voting = on(privateProject, { component: component(30, { suggestionVoting: true, suggestionAutoaccept: 2 }) });
    expect(checkPermission(translator, 'unit.edit', voting)).toEqual({ allowed: false, reason: 'suggestions-only' });
    expect(hasPermission(translator, 'suggestion.add', voting)).toBe(true);
    expect(hasPermission(translator, 'suggestion.vote', voting)).toBe(true);
    expect(checkPermission(translator, 'suggestion.vote', target)).toEqual({ allowed: false, reason: 'voting-disabled' });
  });
});

describe('a project manager (project Administration team)', () => {
  const manager = user([projectTeam(reviewedProject, 'Administration')]);
  const componentTarget = { project: reviewedProject, component: component(40) };

  it('can commit, push, reset, update and lock', () => {
    for (const permission of ['vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.update', 'component.lock'] as const) {
      expect(hasPermission(manager, permission, componentTarget), permission).toBe(true);
    }
    expect(hasPermission(manager, 'meta:vcs.status', componentTarget)).toBe(true);
    expect(hasPermission(manager, 'vcs.push', { project: reviewedProject })).toBe(true);
  });

  it('can add languages unless the component forbids it or is locked', () => {
    expect(hasPermission(manager, 'translation.add', componentTarget)).toBe(true);
    expect(checkPermission(manager, 'translation.add', { project: reviewedProject, component: component(40, { newLang: 'none' }) })).toEqual({
      allowed: false,
      reason: 'no-new-language',
    });
    expect(checkPermission(manager, 'translation.add', { project: reviewedProject, component: component(40, { locked: true }) })).toEqual({
      allowed: false,
      reason: 'locked',
    });
  });

  it('can review and change approved strings where reviews are on', () => {
    expect(hasPermission(manager, 'unit.review', on(reviewedProject))).toBe(true);
    expect(hasPermission(manager, 'unit.edit', on(reviewedProject, { unit: { approved: true } }))).toBe(true);
    const source = on(reviewedProject, { translation: { language: 'en', isSource: true } });
    expect(checkPermission(manager, 'unit.review', source)).toEqual({ allowed: false, reason: 'reviews-disabled' });
  });

  it('adds and removes strings only where the component manages them', () => {
    const bilingual = on(reviewedProject, { component: component(40, { manageUnits: true }) });
    expect(hasPermission(manager, 'unit.add', bilingual)).toBe(true);
    expect(hasPermission(manager, 'unit.delete', bilingual)).toBe(true);
    expect(checkPermission(manager, 'unit.add', on(reviewedProject))).toEqual({ allowed: false, reason: 'units-disabled' });
    const monolingual = on(reviewedProject, { component: component(40, { manageUnits: true, hasTemplate: true }) });
    expect(checkPermission(manager, 'unit.add', monolingual)).toEqual({ allowed: false, reason: 'add-to-source' });
    const monolingualSource = { ...monolingual, translation: { language: 'en', isSource: true } };
    expect(hasPermission(manager, 'unit.add', monolingualSource)).toBe(true);
    expect(
      checkPermission(
        manager,
        'unit.delete',
        on(reviewedProject, {
          component: component(40, { manageUnits: true, formatCanDeleteUnit: false }),
        }),
      ),
    ).toEqual({ allowed: false, reason: 'not-supported' });
  });

  it('has no rights in other projects', () => {
    expect(hasPermission(manager, 'vcs.push', { project: privateProject })).toBe(false);
  });
});

describe('the site-wide Managers team', () => {
  it('grants administration on every project, private ones included', () => {
    const admin = user(defaultTeams(['Managers']));
    for (const project of [publicProject, protectedProject, privateProject]) {
      expect(hasPermission(admin, 'vcs.reset', { project, component: component(5) })).toBe(true);
      expect(canAccessProject(admin, project)).toBe(true);
    }
    expect(hasPermission(admin, 'project.add')).toBe(false);
  });
});

describe('a signed-in user with the default teams (Users, Viewers)', () => {
  const member = user([]);

  it('translates public projects as a power user', () => {
    expect(hasPermission(member, 'unit.edit', on(publicProject))).toBe(true);
    expect(hasPermission(member, 'translation.add', { project: publicProject, component: component(10) })).toBe(true);
    expect(hasPermission(member, 'vcs.push', { project: publicProject, component: component(10) })).toBe(false);
  });

  it('sees protected projects without rights, and no private ones', () => {
    expect(canAccessProject(member, protectedProject)).toBe(true);
    expect(hasPermission(member, 'unit.edit', on(protectedProject))).toBe(false);
    expect(hasPermission(member, 'translation.download', on(protectedProject))).toBe(false);
    expect(canAccessProject(member, privateProject)).toBe(false);
  });
});

describe('the anonymous user (Guests, Viewers)', () => {
  it('on a public project may suggest, download and read the repository, nothing else', () => {
    const target = on(publicProject);
    for (const permission of ['suggestion.add', 'translation.download', 'vcs.access', 'vcs.view'] as const) {
      expect(hasPermission(anonymous, permission, target), permission).toBe(true);
    }
    for (const permission of ['unit.edit', 'upload.perform', 'comment.add', 'vcs.push', 'vcs.commit', 'machinery.view'] as const) {
      expect(hasPermission(anonymous, permission, target), permission).toBe(false);
    }
    expect(canAccessProject(anonymous, publicProject)).toBe(true);
    expect(hasPermission(anonymous, 'project.add')).toBe(false);
  });

  it('sees a protected project with no rights and not a private one', () => {
    expect(canAccessProject(anonymous, protectedProject)).toBe(true);
    expect(hasPermission(anonymous, 'translation.download', on(protectedProject))).toBe(false);
    expect(hasPermission(anonymous, 'suggestion.add', on(protectedProject))).toBe(false);
    expect(canAccessProject(anonymous, privateProject)).toBe(false);
  });

  it('loses even these rights under project 2FA, or where suggestions are off', () => {
    const twoFactor: ProjectScope = { ...publicProject, enforced2fa: true };
    expect(hasPermission(anonymous, 'translation.download', on(twoFactor))).toBe(false);
    const noSuggestions = on(publicProject, { component: component(10, { enableSuggestions: false }) });
    expect(checkPermission(anonymous, 'suggestion.add', noSuggestions)).toEqual({
      allowed: false,
      reason: 'suggestions-disabled',
    });
  });

  it('cannot act on an item as its author', () => {
    expect(hasPermission(anonymous, 'comment.delete', on(publicProject, { ownItem: true }))).toBe(false);
  });
});

describe('a superuser', () => {
  const root = user([], { superuser: true });

  it('passes every grant, everywhere, site-wide ones included', () => {
    expect(hasPermission(root, 'vcs.push', { project: privateProject, component: component(30) })).toBe(true);
    expect(hasPermission(root, 'unit.review', on(reviewedProject))).toBe(true);
    expect(hasPermission(root, 'project.add')).toBe(true);
    expect(hasPermission(root, 'reports.view')).toBe(true);
    expect(canAccessProject(root, privateProject)).toBe(true);
    expect(canAccessComponent(root, privateProject, component(30, { restricted: true }))).toBe(true);
  });

  it('is still stopped by a locked component and read-only strings', () => {
    expect(checkPermission(root, 'unit.edit', on(privateProject, { component: component(30, { locked: true }) }))).toEqual({
      allowed: false,
      reason: 'locked',
    });
    expect(hasPermission(root, 'unit.edit', on(privateProject, { unit: { readOnly: true } }))).toBe(false);
    expect(hasPermission(root, 'translation.delete', on(privateProject, { translation: { language: 'en', isSource: true } }))).toBe(false);
  });

  it('gets nothing once deactivated', () => {
    const inactive = user([], { superuser: true, active: false });
    expect(checkPermission(inactive, 'vcs.push', { project: privateProject })).toEqual({ allowed: false, reason: 'inactive' });
    expect(hasPermission(inactive, 'project.add')).toBe(false);
    expect(canAccessProject(inactive, publicProject)).toBe(false);
  });
});

describe('scoping', () => {
  it('ignores project-wide grants on a restricted component; component teams reach it', () => {
    const restricted = component(50, { restricted: true });
    const translator = user([projectTeam(privateProject, 'Translate')]);
    const target = on(privateProject, { component: restricted });
    expect(hasPermission(translator, 'unit.edit', target)).toBe(false);
    expect(canAccessComponent(translator, privateProject, restricted)).toBe(false);
    const componentTeam = user([{ roles: ['Translate'], projectSelection: 0, languageSelection: 1, components: [{ id: 50, project: 3 }] }]);
    expect(hasPermission(componentTeam, 'unit.edit', target)).toBe(true);
    expect(canAccessComponent(componentTeam, privateProject, restricted)).toBe(true);
    // A component team makes the project visible but grants nothing on its other components.
    expect(canAccessProject(componentTeam, privateProject)).toBe(true);
    expect(hasPermission(componentTeam, 'unit.edit', on(privateProject, { component: component(51) }))).toBe(false);
  });

  it('limits a team with chosen languages to translations in them', () => {
    const german = user([projectTeam(privateProject, 'Translate', { languageSelection: 0, languages: ['de'] })]);
    expect(hasPermission(german, 'unit.edit', on(privateProject))).toBe(true);
    expect(hasPermission(german, 'unit.edit', on(privateProject, { translation: { language: 'fr' } }))).toBe(false);
    // Team-level language selection does not stop language-less checks.
    expect(hasPermission(german, 'translation.download', { project: privateProject, component: component(30) })).toBe(true);
  });

  it('makes a language-limited membership grant nothing language-less and nothing site-wide', () => {
    const limited = user([
      projectTeam(privateProject, 'Administration', { limitLanguages: ['de'] }),
      { ...defaultTeams(['Project creators'])[0]!, limitLanguages: ['de'] },
    ]);
    expect(hasPermission(limited, 'unit.edit', on(privateProject))).toBe(true);
    expect(hasPermission(limited, 'unit.edit', on(privateProject, { translation: { language: 'cs' } }))).toBe(false);
    expect(hasPermission(limited, 'vcs.push', { project: privateProject, component: component(30) })).toBe(false);
    expect(hasPermission(limited, 'project.add')).toBe(false);
    const disjoint = user([projectTeam(privateProject, 'Translate', { languageSelection: 0, languages: ['fr'], limitLanguages: ['de'] })]);
    expect(canAccessProject(disjoint, privateProject)).toBe(false);
  });

  it('skips a 2FA team for members without 2FA, except bots', () => {
    const team = projectTeam(privateProject, 'Translate', { enforced2fa: true });
    expect(hasPermission(user([team]), 'unit.edit', on(privateProject))).toBe(false);
    expect(hasPermission(user([team], { twoFactor: true }), 'unit.edit', on(privateProject))).toBe(true);
    expect(hasPermission(user([team], { bot: true }), 'unit.edit', on(privateProject))).toBe(true);
  });

  it('shuts a blocked user out of the project entirely', () => {
    const blocked = user(defaultTeams(['Managers']), { blockedProjects: [publicProject.id] });
    expect(canAccessProject(blocked, publicProject)).toBe(false);
    expect(hasPermission(blocked, 'translation.download', on(publicProject))).toBe(false);
    expect(hasPermission(blocked, 'vcs.push', { project: privateProject })).toBe(true);
  });

  it('accepts custom roles with their own permissions; unknown role names grant nothing', () => {
    const custom = user([{ roles: [{ name: 'Pusher', permissions: ['vcs.push'] }, 'No such role'], projectSelection: 0, projects: [3], languageSelection: 1 }]);
    expect(hasPermission(custom, 'vcs.push', { project: privateProject })).toBe(true);
    expect(hasPermission(custom, 'vcs.commit', { project: privateProject })).toBe(false);
  });
});

describe('special cases', () => {
  it('lets an author resolve or delete their own comment without the permission', () => {
    const member = user([]);
    expect(hasPermission(member, 'comment.delete', on(protectedProject))).toBe(false);
    expect(hasPermission(member, 'comment.delete', on(protectedProject, { ownItem: true }))).toBe(true);
  });

  it('never dismisses an enforced check', () => {
    const member = user([]);
    expect(hasPermission(member, 'unit.check', on(publicProject))).toBe(true);
    expect(checkPermission(member, 'unit.check', on(publicProject, { enforcedCheck: true }))).toEqual({
      allowed: false,
      reason: 'enforced-check',
    });
  });

  it('keeps automatic translation and machinery off source translations', () => {
    const admin = user([projectTeam(privateProject, 'Administration')]);
    const source = on(privateProject, { translation: { language: 'en', isSource: true } });
    expect(hasPermission(admin, 'translation.auto', on(privateProject))).toBe(true);
    expect(checkPermission(admin, 'translation.auto', source)).toEqual({ allowed: false, reason: 'source' });
    expect(hasPermission(admin, 'machinery.view', source)).toBe(false);
    expect(hasPermission(admin, 'machinery.view', on(privateProject))).toBe(true);
  });

  it('uploads to a bilingual source only through source.edit and a capable format', () => {
    const admin = user([projectTeam(privateProject, 'Administration')]);
    const source = on(privateProject, { translation: { language: 'en', isSource: true } });
    expect(checkPermission(admin, 'upload.perform', source)).toEqual({ allowed: false, reason: 'not-supported' });
    const capable = { ...source, component: component(30, { formatCanUpdateBilingual: true }) };
    expect(hasPermission(admin, 'upload.perform', capable)).toBe(true);
    expect(hasPermission(user([projectTeam(privateProject, 'Translate')]), 'upload.perform', capable)).toBe(false);
  });

  it('allows memory edits through the site-wide memory.manage', () => {
    const memory = user([{ roles: [{ name: 'TM', permissions: ['memory.manage'] }], projectSelection: 1, languageSelection: 1 }]);
    expect(hasPermission(memory, 'memory.edit', { project: privateProject })).toBe(true);
    expect(hasPermission(user([]), 'memory.edit', { project: privateProject })).toBe(false);
  });

  it('needs a target for object permissions unless superuser, and rejects unknown codenames', () => {
    expect(checkPermission(user([]), 'reports.view')).toEqual({ allowed: false, reason: 'superuser-only' });
    expect(() => checkPermission(user([]), 'vcs.fly' as never, { project: publicProject })).toThrowError(
      expect.objectContaining({ code: 'UnknownPermissionError', data: { permission: 'vcs.fly' } }),
    );
  });
});
