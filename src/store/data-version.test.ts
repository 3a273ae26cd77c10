import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import { createUser } from './users.repo.js';

describe('dataVersion', () => {
  it("changes at once with a write through the store, and with another connection's write by the next turn", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tms-version-')), 'tms.sqlite');
    const store = await openStore(file);
    const other = await openStore(file);
    try {
      const v0 = await store.dataVersion();
      expect(await store.dataVersion()).toBe(v0);
      await store.write((tx) => createUser(tx, { username: 'own' }));
      const v1 = await store.dataVersion();
      expect(v1).not.toBe(v0);
      await other.write((tx) => createUser(tx, { username: 'other' }));
      // PostgreSQL reads the shared counter once per turn of the event loop: a request of the next turn sees it
      await new Promise((resolve) => setImmediate(resolve));
      expect(await store.dataVersion()).not.toBe(v1);
    } finally {
      await store.close();
      await other.close();
    }
  });
});
