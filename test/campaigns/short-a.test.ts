// The reliability campaigns' short forms (fuzz, kill, hostile-repos), so that CI runs every campaign: few trials, a
// few seconds each, on the demo files. The full runs and their figures: RELIABILITY.md.
import { describe, it } from 'vitest';
import { runCampaign } from './run.js';

describe('campaigns, short forms (a)', () => {
  it('campaign:fuzz', () => runCampaign('fuzz', { FUZZ_RUNS: '150', FUZZ_SECONDS: '20' }), 120_000);
  it('campaign:kill', () => runCampaign('kill', { KILL_TRIALS: '1' }), 180_000);
  it('campaign:hostile-repos', () => runCampaign('hostile-repos', { HOSTILE_BIG_MB: '55' }), 120_000);
});
