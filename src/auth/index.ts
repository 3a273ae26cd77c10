// The auth package: Weblate's permission codenames, default roles and teams, and the pure permission resolver.
export * from './permissions.js';
export * from './defaults.js';
export * from './check.js';
