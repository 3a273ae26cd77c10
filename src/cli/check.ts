// `tms check`: validate the configuration and print what it declares.

import type { Config } from '../config/config.js';
import { shownDatabase } from '../config/database.js';
import { redactUrl } from '../domain/url.js';
import type { CliIo } from './io.js';

/** Prints the projects and components of a valid configuration. */
export function runCheck(config: Config, io: CliIo): number {
  io.out(`configuration: ${config.file}`);
  io.out(`database: ${shownDatabase(config.database)}`);
  io.out(`working copies: ${config.repos_dir}`);
  io.out(`projects: ${config.projects.length}`);
  for (const project of config.projects) {
    io.out(`- ${project.slug} "${project.name}": ${project.components.length} component(s)`);
    for (const c of project.components) {
      const template = c.template ? `, template ${c.template}` : '';
      const repo = c.vcs === 'local' ? 'local:' : redactUrl(c.repo);
      io.out(`  - ${project.slug}/${c.slug} "${c.name}": ${c.file_format} ${c.filemask}${template} from ${repo}${c.branch ? ` (${c.branch})` : ''}`);
    }
  }
  io.out('configuration is valid');
  return 0;
}
