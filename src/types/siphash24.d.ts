// Types for the siphash24 package (it ships none).
declare module 'siphash24' {
  /** SipHash-2-4 of `data` with a 16-byte `key`, written into `out` (8 bytes, little-endian). */
  function siphash24(data: Uint8Array, key: Uint8Array, out?: Uint8Array, noAssert?: boolean): Uint8Array;
  export default siphash24;
}

declare module 'siphash24/fallback.js' {
  /** The package's pure-JavaScript SipHash-2-4 (used by tests as a cross-check of the WebAssembly path). */
  function fallback(out: Uint8Array, data: Uint8Array, key: Uint8Array): void;
  export default fallback;
}

declare module 'siphash24/siphash24.js' {
  /** The package's WebAssembly SipHash-2-4: `siphash(ptr, len)` hashes memory[ptr, ptr + len) with the key at 8-23 into 0-7. */
  function instantiate(): { memory: WebAssembly.Memory; siphash(ptr: number, len: number): void };
  export default instantiate;
}
