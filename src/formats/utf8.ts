// Where UTF-8 breaks: every format decodes strictly and reports the first bad byte's position.

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1 when all are valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b! < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b! >= 0xc2 && b! <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b! >= 0xe0 && b! <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b! >= 0xf0 && b! <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b! & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
