// Runs the tms CLI from source in a child process, so tests can send it real signals.
import { run } from '../../src/cli/index.js';

await run();
