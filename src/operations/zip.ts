// A minimal ZIP writer: stored (uncompressed) entries with CRC-32 from node:zlib, UTF-8 names, no ZIP64.
import { crc32 } from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  bytes: Uint8Array;
}

const LIMIT = 0xffff_ffff;
const UTF8_NAMES = 0x0800;
const UNIX = 3 << 8;
const REGULAR_FILE_644 = (0o100644 << 16) >>> 0;

/** MS-DOS time and date of a moment (UTC; two-second resolution, years from 1980). */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * A ZIP archive of `entries`, each stored as it is (method 0). Throws RangeError past the classic ZIP limits
 * (65 535 entries, 4 GiB). Any unzip tool reads it.
 * @example writeFileSync('out.zip', zipStore([{ name: 'po/de.po', bytes }]))
 */
export function zipStore(entries: readonly ZipEntry[], modified: Date = new Date()): Uint8Array {
  if (entries.length > 0xffff) throw new RangeError('a ZIP without ZIP64 holds at most 65535 entries');
  const { time, date } = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.bytes.length;
    const crc = crc32(entry.bytes);
    const local = Buffer.alloc(30 + name.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(size, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    name.copy(local, 30);

    const central = Buffer.alloc(46 + name.length);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(UNIX | 20, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(size, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal attributes: 0
    central.writeUInt32LE(REGULAR_FILE_644, 38);
    central.writeUInt32LE(offset, 42);
    name.copy(central, 46);

    offset += local.length + size;
    if (offset > LIMIT) throw new RangeError('a ZIP without ZIP64 holds at most 4 GiB');
    locals.push(local, Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength));
    centrals.push(central);
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
