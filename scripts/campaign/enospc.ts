// Loaded with `--import` into a child process: writes under TMS_ENOSPC_DIR fail with ENOSPC once TMS_ENOSPC_AFTER
// writes went through (the disk is full from then on); -1 only counts. The count is printed on exit.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const dir = process.env.TMS_ENOSPC_DIR ? path.resolve(process.env.TMS_ENOSPC_DIR) : null;
const after = Number(process.env.TMS_ENOSPC_AFTER ?? -1);
let writes = 0;
let refused = 0;

function target(file: unknown): string | null {
  if (typeof file === 'string') return path.resolve(file);
  if (file instanceof URL) return file.pathname;
  if (Buffer.isBuffer(file)) return path.resolve(file.toString());
  return null;
}

/** Open file descriptors under the directory, so that writes through them count too. */
const watched = new Set<number>();

function check(file: string | null): void {
  if (!dir || file === null || !(file === dir || file.startsWith(dir + path.sep))) return;
  if (after >= 0 && writes >= after) {
    refused++;
    const error = new Error(`ENOSPC: no space left on device, write '${file}'`) as NodeJS.ErrnoException;
    error.code = 'ENOSPC';
    error.errno = -28;
    error.syscall = 'write';
    error.path = file;
    throw error;
  }
  writes++;
}

const fdPath = new Map<number, string>();
const original = {
  writeFileSync: fs.writeFileSync,
  appendFileSync: fs.appendFileSync,
  writeSync: fs.writeSync,
  openSync: fs.openSync,
  closeSync: fs.closeSync,
  mkdirSync: fs.mkdirSync,
  copyFileSync: fs.copyFileSync,
  promisesWriteFile: fs.promises.writeFile,
  promisesAppendFile: fs.promises.appendFile,
};

Object.assign(fs, {
  writeFileSync(file: fs.PathOrFileDescriptor, ...rest: unknown[]) {
    check(typeof file === 'number' ? (fdPath.get(file) ?? null) : target(file));
    return (original.writeFileSync as (...a: unknown[]) => void)(file, ...rest);
  },
  appendFileSync(file: fs.PathOrFileDescriptor, ...rest: unknown[]) {
    check(typeof file === 'number' ? (fdPath.get(file) ?? null) : target(file));
    return (original.appendFileSync as (...a: unknown[]) => void)(file, ...rest);
  },
  writeSync(fd: number, ...rest: unknown[]) {
    check(fdPath.get(fd) ?? null);
    return (original.writeSync as (...a: unknown[]) => number)(fd, ...rest);
  },
  openSync(file: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) {
    const fd = original.openSync(file, flags ?? 'r', mode);
    if (typeof flags === 'string' && /[wa+]/.test(flags)) {
      const t = target(file);
      if (t) fdPath.set(fd, t);
    }
    watched.add(fd);
    return fd;
  },
  closeSync(fd: number) {
    fdPath.delete(fd);
    return original.closeSync(fd);
  },
  mkdirSync(file: fs.PathLike, options?: fs.MakeDirectoryOptions) {
    if (!fs.existsSync(file)) check(target(file));
    return original.mkdirSync(file, options);
  },
  copyFileSync(src: fs.PathLike, dest: fs.PathLike, mode?: number) {
    check(target(dest));
    return original.copyFileSync(src, dest, mode);
  },
});
Object.assign(fs.promises, {
  async writeFile(file: fs.PathLike, ...rest: unknown[]) {
    check(target(file));
    return (original.promisesWriteFile as (...a: unknown[]) => Promise<void>)(file, ...rest);
  },
  async appendFile(file: fs.PathLike, ...rest: unknown[]) {
    check(target(file));
    return (original.promisesAppendFile as (...a: unknown[]) => Promise<void>)(file, ...rest);
  },
});
syncBuiltinESMExports();

process.on('exit', () => {
  process.stderr.write(`enospc: writes=${writes} refused=${refused}\n`);
});
