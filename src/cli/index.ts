// The `tms` command line: parses arguments, loads the configuration, runs a command, maps errors to exit codes.
import { Command, CommanderError, Option } from 'commander';
import type { Config } from '../config/config.js';
import { ConfigError, TmsError } from '../domain/errors.js';
import { CliFailure, type CliIo, processIo } from './io.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

interface GlobalOptions {
  config?: string;
}

function buildProgram(io: CliIo, run: (action: () => Promise<number> | number) => void): Command {
  const program = new Command('tms')
    .description('Self-hosted, git-backed translation engine with a Weblate-compatible API')
    .version(TMS_VERSION, '-V, --version')
    .addOption(new Option('-c, --config <file>', 'configuration file (default: $TMS_CONFIG or ./tms.config.json)'))
    .showHelpAfterError('(run "tms --help" for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s.replace(/\n$/, '')),
      writeErr: (s) => io.err(s.replace(/\n$/, '')),
    });

  // loaded when a command needs it: `tms --help` and usage errors load no configuration code
  const config = async (): Promise<Config> => {
    const { configPath, loadConfig } = await import('../config/config.js');
    const flag = program.opts<GlobalOptions>().config;
    try {
      return loadConfig(configPath(flag));
    } catch (e) {
      if (e instanceof ConfigError && e.data.missing) throw new CliFailure(`${e.message} (${configSource(flag)})`);
      throw e;
    }
  };

  program
    .command('check')
    .description('validate the configuration and print the projects and components it declares')
    .action(() =>
      run(async () => {
        const { runCheck } = await import('./check.js');
        return runCheck(await config(), io);
      }),
    );

  program
    .command('sync')
    .description('clone or update the repositories of a project and load their translations into the store')
    .argument('[project]', 'project slug')
    .argument('[component]', 'component slug (default: every component of the project)')
    .option('--all', 'sync every project')
    .option('--watch', 'keep running and re-sync when local files or the configuration change')
    .option(
      '--threads <n>',
      "threads parsing and writing many components or a large one's files (default: sync_threads, else the cores available; 1: one thread)",
    )
    .action((project: string | undefined, component: string | undefined, opts: { all?: boolean; watch?: boolean; threads?: string }) =>
      run(async () => {
        if (!project && !opts.all) throw new CliFailure('sync needs a project slug or --all', EXIT_USAGE);
        const threads = opts.threads === undefined ? undefined : Number(opts.threads);
        if (threads !== undefined && (!Number.isInteger(threads) || threads < 1 || threads > 256)) {
          throw new CliFailure(`invalid number of threads "${opts.threads}"`, EXIT_USAGE);
        }
        const cfg = await config();
        // each component's "did upstream move?" request travels while the store's code loads and the database opens
        const { askUpstreamsEarly } = await import('../sync/early.js');
        await askUpstreamsEarly(cfg, { project, component, all: Boolean(opts.all) });
        const { runSync } = await import('./sync.js');
        return runSync(cfg, io, { project, component, all: Boolean(opts.all), watch: Boolean(opts.watch), threads });
      }),
    );

  program
    .command('discover')
    .description('propose the components a repository holds (file masks, formats, templates), as configuration to paste')
    .argument('<repository>', 'a working tree, or a git URL or bare repository to clone')
    .option('--json', 'print a JSON list of {filemask, file_format, template, new_base}')
    .option('--project <slug>', "the project's slug: the components after the first share its repository (weblate://<slug>/<first>)")
    .action((repository: string, opts: { json?: boolean; project?: string }) =>
      run(async () => {
        const { projectSchema } = await import('../config/schema.js');
        if (opts.project !== undefined && !new RegExp(projectSchema.properties.slug.pattern).test(opts.project)) {
          throw new CliFailure(`invalid project slug "${opts.project}" (letters, digits, "-" and "_")`, EXIT_USAGE);
        }
        const { runDiscover } = await import('./discover.js');
        return runDiscover(io, repository, { json: Boolean(opts.json), project: opts.project });
      }),
    );

  program
    .command('serve')
    .description('serve the web interface, the Weblate-compatible API and webhooks')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on', '8000')
    .option('--workers <n>', "serving processes sharing the port (default: the cores available, a container's CPU quota included, at most 8; 1: one process)")
    .action((opts: { host: string; port: string; workers?: string }) =>
      run(async () => {
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliFailure(`invalid port "${opts.port}"`, EXIT_USAGE);
        const workers = opts.workers === undefined ? (await import('./cores.js')).defaultWorkers() : Number(opts.workers);
        if (!Number.isInteger(workers) || workers < 1 || workers > 256) throw new CliFailure(`invalid number of workers "${opts.workers}"`, EXIT_USAGE);
        const cfg = await config();
        const { runServe } = await import('./serve.js');
        return runServe(cfg, io, { host: opts.host, port, workers });
      }),
    );

  program
    .command('backup')
    .description('write a consistent copy of the database to a file, while tms serve keeps running')
    .argument('<file>', 'the backup file (replaced when it exists)')
    .action((file: string) =>
      run(async () => {
        const cfg = await config();
        const { runBackup } = await import('./backup.js');
        return runBackup(cfg, io, file);
      }),
    );

  program
    .command('restore')
    .description('replace the database with a backup (stop tms serve first)')
    .argument('<file>', 'a file written by tms backup')
    .action((file: string) =>
      run(async () => {
        const cfg = await config();
        const { runRestore } = await import('./backup.js');
        return runRestore(cfg, io, file);
      }),
    );

  const db = program.command('db').description('move the database between engines');
  db.command('copy')
    .description('copy a whole tms database into an empty one (SQLite file ↔ postgresql:// URL) and verify every table; stop tms serve first')
    .argument('<from>', 'the database to copy: a SQLite file or a postgresql:// URL')
    .argument('<to>', 'an empty (or new) database: a SQLite file or a postgresql:// URL')
    .action((from: string, to: string) =>
      run(async () => {
        const { runDbCopy } = await import('./db-copy.js');
        return runDbCopy(io, from, to);
      }),
    );

  const user = program.command('user').description('manage users and their API tokens');
  user
    .command('add')
    .description('create a user and print its API token on the last line')
    .argument('<username>')
    .option('--full-name <name>', 'full name (default: the username)')
    .option('--email <email>', 'e-mail address')
    .option('--admin', 'make the user a superuser')
    .option('--password-stdin', 'read a web sign-in password from the first line of standard input')
    .action((username: string, opts: { fullName?: string; email?: string; admin?: boolean; passwordStdin?: boolean }) =>
      run(async () => {
        const cfg = await config();
        const [{ openStore }, { runUserAdd }] = await Promise.all([import('../store/index.js'), import('./user.js')]);
        const store = await openStore(cfg.database);
        try {
          // the password reading (and hashing) loads only when one is given
          const password = opts.passwordStdin ? async () => (await import('./password-input.js')).readNewPassword(true) : undefined;
          return await runUserAdd(store, io, username, { ...opts, password });
        } finally {
          await store.close();
        }
      }),
    );
  user
    .command('password')
    .description('set the password a user signs in to the web interface with (standard input, or a prompt on a terminal)')
    .argument('<username>')
    .action((username: string) =>
      run(async () => {
        const cfg = await config();
        const [{ openStore }, { runUserPassword }, { readNewPassword }] = await Promise.all([
          import('../store/index.js'),
          import('./user.js'),
          import('./password-input.js'),
        ]);
        const store = await openStore(cfg.database);
        try {
          return await runUserPassword(store, io, username, () => readNewPassword(false));
        } finally {
          await store.close();
        }
      }),
    );
  user
    .command('token')
    .description("replace a user's API token and print the new one on the last line")
    .argument('<username>')
    .action((username: string) =>
      run(async () => {
        const cfg = await config();
        const [{ openStore }, { runUserToken }] = await Promise.all([import('../store/index.js'), import('./user.js')]);
        const store = await openStore(cfg.database);
        try {
          return await runUserToken(store, io, username);
        } finally {
          await store.close();
        }
      }),
    );
  for (const [name, description, runner] of [
    ['disable', "stop a user's API token and web sign-in (the user and their history stay)", 'runUserDisable'],
    ['enable', 'let a disabled user authenticate and sign in again', 'runUserEnable'],
    ['delete', 'delete a user (their changes stay in the history, their pending edits stay pending)', 'runUserDelete'],
  ] as const) {
    user
      .command(name)
      .description(description)
      .argument('<username>')
      .action((username: string) =>
        run(async () => {
          const cfg = await config();
          const [{ openStore }, commands] = await Promise.all([import('../store/index.js'), import('./user.js')]);
          const store = await openStore(cfg.database);
          try {
            return await commands[runner](store, io, username);
          } finally {
            await store.close();
          }
        }),
      );
  }
  user
    .command('list')
    .description('list users')
    .action(() =>
      run(async () => {
        const cfg = await config();
        const [{ openStore }, { runUserList }] = await Promise.all([import('../store/index.js'), import('./user.js')]);
        const store = await openStore(cfg.database);
        try {
          return await runUserList(store, io);
        } finally {
          await store.close();
        }
      }),
    );
  const memory = program.command('memory').description('import and export the translation memory (TMX or Weblate JSON)');
  memory
    .command('import')
    .description('import a TMX file or a Weblate JSON memory dump (into the shared memory unless --project or --user)')
    .argument('<file>')
    .option('--project <slug>', "import into this project's memory")
    .option('--user <username>', "import into this user's personal memory")
    .option('--format <format>', 'tmx or json (default: from the file name)')
    .action((file: string, opts: { project?: string; user?: string; format?: string }) =>
      run(async () => {
        const cfg = await config();
        const [{ openStore }, { runMemoryImport }] = await Promise.all([import('../store/index.js'), import('./memory.js')]);
        const store = await openStore(cfg.database);
        try {
          return await runMemoryImport(store, io, file, opts);
        } finally {
          await store.close();
        }
      }),
    );
  memory
    .command('export')
    .description("export the memory: every project's translated strings and every imported entry, or one project's")
    .argument('<file>')
    .option('--project <slug>', "only this project's strings and imported entries")
    .option('--format <format>', 'tmx or json (default: from the file name)')
    .action((file: string, opts: { project?: string; format?: string }) =>
      run(async () => {
        const cfg = await config();
        const [{ openStore }, { runMemoryExport }] = await Promise.all([import('../store/index.js'), import('./memory.js')]);
        const store = await openStore(cfg.database);
        try {
          return await runMemoryExport(store, io, file, opts);
        } finally {
          await store.close();
        }
      }),
    );
  return program;
}

/** Where the configuration file's name came from, for the message that it is missing. */
function configSource(flag: string | undefined): string {
  if (flag !== undefined) return 'the file --config names';
  if (process.env.TMS_CONFIG) return 'the file TMS_CONFIG names';
  return 'the default: give the configuration file with --config FILE or TMS_CONFIG=FILE';
}

declare const TMS_VERSION_INJECTED: string | undefined;
const TMS_VERSION = typeof TMS_VERSION_INJECTED === 'string' ? TMS_VERSION_INJECTED : '0.1.0';

function errorLine(error: unknown): string {
  if (error instanceof CliFailure) return `tms: ${error.message}`;
  if (error instanceof TmsError) return `tms: ${error.message}`;
  return `tms: unexpected error: ${(error as Error)?.stack ?? String(error)}`;
}

/**
 * Runs the CLI with these arguments (without `node` and the script) and returns the exit code:
 * 0 ok, 1 failure (one clear message on stderr), 2 usage.
 * @example await main(['check', '--config', 'tms.config.json'])
 */
export async function main(args: string[], io: CliIo = processIo): Promise<number> {
  let pending: Promise<number> | undefined;
  const program = buildProgram(io, (action) => {
    pending = Promise.resolve().then(action);
  });
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // `tms` alone (commander shows the help on stderr): a usage error, not a success
      if (e.code === 'commander.help' && args.length === 0) return EXIT_USAGE;
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT_OK;
      if (e.code === 'commander.executeSubCommandAsync') return EXIT_FAILURE;
      return EXIT_USAGE;
    }
    io.err(errorLine(e));
    return EXIT_FAILURE;
  }
  if (!pending) {
    program.outputHelp();
    return args.length === 0 ? EXIT_USAGE : EXIT_OK;
  }
  try {
    return await pending;
  } catch (e) {
    io.err(errorLine(e));
    return e instanceof CliFailure ? e.exitCode : EXIT_FAILURE;
  }
}

/** Entry point for bin/tms: the only place that calls process.exit. */
export async function run(): Promise<void> {
  const code = await main(process.argv.slice(2));
  process.exitCode = code;
  if (code !== 0 || !keepsRunning(process.argv.slice(2))) {
    // let stdout drain, then exit even if something (a pool, a watcher) keeps the loop alive
    process.stdout.write('', () => process.exit(code));
  }
}

function keepsRunning(args: string[]): boolean {
  return args.includes('serve') || args.includes('--watch');
}
