// Runs a command against a throwaway PostgreSQL server (scripts/postgres-server.ts): a database `tms_test` with
// pg_trgm; the command gets TMS_TEST_POSTGRES (the suite then stores in PostgreSQL) and the server is stopped and
// removed afterwards, whatever the command's outcome.
//   npm run test:postgres            (vitest run against PostgreSQL)
//   tsx scripts/with-postgres.ts <command …>
import { spawn } from 'node:child_process';
import { type PostgresServer, startPostgres } from './postgres-server.js';

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: tsx scripts/with-postgres.ts <command …>');
  process.exit(2);
}

let server: PostgresServer | undefined;
let code = 1;
try {
  server = startPostgres('tms_test');
  console.log(`with-postgres: PostgreSQL at ${server.dir} (database tms_test)`);
  const url = server.url;
  code = await new Promise<number>((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env: { ...process.env, TMS_TEST_POSTGRES: url } });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
    child.on('error', (e) => {
      console.error(`with-postgres: ${e.message}`);
      resolve(1);
    });
  });
} finally {
  server?.stop();
}
process.exit(code);
