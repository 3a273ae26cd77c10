// The reliability campaigns' short forms (upstream, soak, disk-full), so that CI runs every campaign: few trials, a
// few seconds each, on the demo files. The full runs and their figures: RELIABILITY.md.
import { describe, it } from 'vitest';
import { runCampaign } from './run.js';

describe('campaigns, short forms (b)', () => {
  it('campaign:upstream', () => runCampaign('upstream', {}), 120_000);
  it(
    'campaign:soak',
    () => runCampaign('soak', { SOAK_CLIENTS: '5', SOAK_SECONDS: '4', SOAK_COMMIT_EVERY_MS: '1000', SOAK_UPSTREAM_EVERY_MS: '1500' }),
    120_000,
  );
  it('campaign:disk-full', () => runCampaign('disk-full', { DISK_TRIALS: '2' }), 120_000);
});
