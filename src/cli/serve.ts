// `tms serve`: placeholder until the API lands.
import type { Config } from '../config/config.js';
import { CliFailure, type CliIo } from './io.js';

export async function runServe(_config: Config, _io: CliIo, _opts: { host: string; port: number }): Promise<number> {
  throw new CliFailure('serve is not yet available in this build');
}
