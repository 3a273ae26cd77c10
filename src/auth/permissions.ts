// Weblate's permission codenames: the object-scoped ones and the site-wide ones, with their names.

/** An object-scoped permission: checked against a project, component, translation or unit. */
export const PERMISSIONS = [
  { codename: 'change.download', name: 'Download changes' },
  { codename: 'comment.add', name: 'Post comment' },
  { codename: 'comment.delete', name: 'Delete comment' },
  { codename: 'comment.resolve', name: 'Resolve comment' },
  { codename: 'component.edit', name: 'Edit component settings' },
  { codename: 'component.lock', name: 'Lock component, preventing translations' },
  { codename: 'glossary.add', name: 'Add glossary entry' },
  { codename: 'glossary.terminology', name: 'Add glossary terminology' },
  { codename: 'glossary.edit', name: 'Edit glossary entry' },
  { codename: 'glossary.delete', name: 'Delete glossary entry' },
  { codename: 'glossary.upload', name: 'Upload glossary entries' },
  { codename: 'machinery.view', name: 'Use automatic suggestions' },
  { codename: 'memory.edit', name: 'Edit translation memory' },
  { codename: 'memory.delete', name: 'Delete translation memory' },
  { codename: 'project.edit', name: 'Edit project settings' },
  { codename: 'project.permissions', name: 'Manage project access' },
  { codename: 'reports.view', name: 'Download reports' },
  { codename: 'screenshot.add', name: 'Add screenshot' },
  { codename: 'screenshot.edit', name: 'Edit screenshot' },
  { codename: 'screenshot.delete', name: 'Delete screenshot' },
  { codename: 'source.edit', name: 'Edit additional string info' },
  { codename: 'unit.add', name: 'Add new string' },
  { codename: 'unit.delete', name: 'Remove a string' },
  { codename: 'unit.check', name: 'Dismiss failing check' },
  { codename: 'unit.edit', name: 'Edit strings' },
  { codename: 'unit.review', name: 'Review strings' },
  { codename: 'unit.bulk_edit', name: 'Bulk edit strings' },
  { codename: 'unit.override', name: 'Edit string when suggestions are enforced' },
  { codename: 'unit.template', name: 'Edit source strings' },
  { codename: 'suggestion.accept', name: 'Accept suggestion' },
  { codename: 'suggestion.add', name: 'Add suggestion' },
  { codename: 'suggestion.delete', name: 'Delete suggestion' },
  { codename: 'suggestion.vote', name: 'Vote on suggestion' },
  { codename: 'translation.add', name: 'Add language for translation' },
  { codename: 'translation.auto', name: 'Perform automatic translation' },
  { codename: 'translation.delete', name: 'Delete existing translation' },
  { codename: 'translation.download', name: 'Download translation file' },
  { codename: 'translation.add_more', name: 'Add several languages for translation' },
  { codename: 'upload.authorship', name: 'Define author of uploaded translation' },
  { codename: 'upload.overwrite', name: 'Overwrite existing strings with upload' },
  { codename: 'upload.perform', name: 'Upload translations' },
  { codename: 'vcs.access', name: 'Access the internal repository' },
  { codename: 'vcs.commit', name: 'Commit changes to the internal repository' },
  { codename: 'vcs.push', name: 'Push change from the internal repository' },
  { codename: 'vcs.reset', name: 'Reset changes in the internal repository' },
  { codename: 'vcs.view', name: 'View upstream repository location' },
  { codename: 'vcs.update', name: 'Update the internal repository' },
  { codename: 'announcement.add', name: 'Post announcements' },
  { codename: 'announcement.delete', name: 'Delete announcements' },
  { codename: 'workspace.edit', name: 'Edit workspace settings' },
  { codename: 'workspace.add_project', name: 'Add projects to workspace' },
  { codename: 'workspace.edit_members', name: 'Manage workspace access' },
] as const;

/** A site-wide permission: not scoped to any project. */
export const GLOBAL_PERMISSIONS = [
  { codename: 'management.use', name: 'Use management interface' },
  { codename: 'management.configure', name: 'Manage site configuration' },
  { codename: 'project.add', name: 'Add new projects' },
  { codename: 'workspace.add', name: 'Add new workspaces' },
  { codename: 'language.add', name: 'Add language definitions' },
  { codename: 'language.edit', name: 'Manage language definitions' },
  { codename: 'group.edit', name: 'Manage teams' },
  { codename: 'group.view', name: 'View team info' },
  { codename: 'user.edit', name: 'Manage users' },
  { codename: 'user.view', name: 'View user info' },
  { codename: 'role.edit', name: 'Manage roles' },
  { codename: 'role.view', name: 'View role info' },
  { codename: 'announcement.edit', name: 'Manage announcements' },
  { codename: 'memory.manage', name: 'Manage translation memory' },
  { codename: 'machinery.edit', name: 'Manage machinery' },
  { codename: 'componentlist.edit', name: 'Manage component lists' },
  { codename: 'billing.manage', name: 'Manage billing' },
  { codename: 'management.addons', name: 'Manage site-wide add-ons' },
] as const;

export type ObjectPermission = (typeof PERMISSIONS)[number]['codename'];
export type GlobalPermission = (typeof GLOBAL_PERMISSIONS)[number]['codename'];
/** A check that exists only as logic, never as a stored permission. */
export type MetaPermission = 'meta:vcs.status';
export type Permission = ObjectPermission | GlobalPermission;

const OBJECT_CODENAMES: ReadonlySet<string> = new Set(PERMISSIONS.map((permission) => permission.codename));
const GLOBAL_CODENAMES: ReadonlySet<string> = new Set(GLOBAL_PERMISSIONS.map((permission) => permission.codename));

/** Whether a codename is one of the 52 object-scoped permissions. */
export function isObjectPermission(codename: string): codename is ObjectPermission {
  return OBJECT_CODENAMES.has(codename);
}

/** Whether a codename is one of the 18 site-wide permissions. */
export function isGlobalPermission(codename: string): codename is GlobalPermission {
  return GLOBAL_CODENAMES.has(codename);
}

/** The human name of a permission; site-wide ones say so, as Weblate's `Permission.__str__` does. */
export function permissionName(codename: Permission): string {
  const global = GLOBAL_PERMISSIONS.find((permission) => permission.codename === codename);
  if (global) return `${global.name} (site-wide permission)`;
  return PERMISSIONS.find((permission) => permission.codename === codename)?.name ?? codename;
}

/** The ten permissions every translating role starts from (Weblate's TRANSLATE_PERMS). */
export const TRANSLATE_PERMISSIONS: readonly ObjectPermission[] = [
  'comment.add',
  'suggestion.accept',
  'suggestion.add',
  'suggestion.vote',
  'unit.check',
  'unit.edit',
  'translation.download',
  'upload.overwrite',
  'upload.perform',
  'machinery.view',
];

/** Every object permission whose codename starts with `prefix`, minus `exclude`, in definition order. */
export function filterPermissions(prefix: string, exclude: readonly string[] = []): ObjectPermission[] {
  return PERMISSIONS.map((permission) => permission.codename).filter((codename) => codename.startsWith(prefix) && !exclude.includes(codename));
}
