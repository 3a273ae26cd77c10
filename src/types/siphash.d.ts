// Types for the siphash package (it ships none).
declare module 'siphash' {
  type Key = Uint32Array;
  const siphash: {
    string16_to_key(key: string): Key;
    hash(key: Key, message: string | Uint8Array): { h: number; l: number };
    hash_hex(key: Key, message: string | Uint8Array): string;
  };
  export default siphash;
}
