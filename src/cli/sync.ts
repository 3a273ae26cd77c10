// `tms sync`: placeholder until the repository sync lands.
import type { Config } from '../config/config.js';
import { findProject } from '../config/config.js';
import { CliFailure, type CliIo } from './io.js';

export interface SyncOptions {
  project?: string;
  component?: string;
  all: boolean;
  watch: boolean;
}

export async function runSync(config: Config, _io: CliIo, opts: SyncOptions): Promise<number> {
  if (opts.project && !findProject(config, opts.project)) throw new CliFailure(`unknown project "${opts.project}"`);
  throw new CliFailure('sync is not yet available in this build');
}
