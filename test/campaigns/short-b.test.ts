// The reliability campaigns' short forms (upstream, soak, disk-full), so that CI runs every campaign: few trials, a
// few seconds each, on the demo files. The full runs and their figures: RELIABILITY.md.
import { describe, it } from 'vitest';
import { onPostgres } from '../helpers/store.js';
import { runCampaign } from './run.js';

describe('campaigns, short forms (b)', () => {
  it('campaign:upstream', () => runCampaign('upstream', {}), 120_000);
  it(
    'campaign:soak',
    () => runCampaign('soak', { SOAK_CLIENTS: '5', SOAK_SECONDS: '4', SOAK_COMMIT_EVERY_MS: '1000', SOAK_UPSTREAM_EVERY_MS: '1500' }),
    120_000,
  );
  // SQLite's own files (integrity after kill -9, a full disk under the database file): the SQLite engine's campaigns
  it.skipIf(onPostgres)('campaign:disk-full', () => runCampaign('disk-full', { DISK_TRIALS: '2' }), 120_000);
});
