// The reliability campaigns' short forms (fuzz, kill, hostile-repos), so that CI runs every campaign: few trials, a
// few seconds each, on the demo files. The full runs and their figures: RELIABILITY.md.
import { describe, it } from 'vitest';
import { onPostgres } from '../helpers/store.js';
import { runCampaign } from './run.js';

describe('campaigns, short forms (a)', () => {
  it('campaign:fuzz', () => runCampaign('fuzz', { FUZZ_RUNS: '150', FUZZ_SECONDS: '20' }), 120_000);
  // SQLite's own files (integrity after kill -9, a full disk under the database file): the SQLite engine's campaigns
  it.skipIf(onPostgres)('campaign:kill', () => runCampaign('kill', { KILL_TRIALS: '1' }), 180_000);
  it('campaign:hostile-repos', () => runCampaign('hostile-repos', { HOSTILE_BIG_MB: '55' }), 120_000);
});
