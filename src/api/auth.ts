// Authentication of API requests: `Authorization: Token <key>` or `Bearer <key>` → a user; none → the anonymous user.
import { accountByToken } from '../store/accounts.query.js';
import type { AccountRow, Store } from '../store/index.js';
import { authenticationFailed, serverError } from './errors.js';

/**
 * The user a request acts as. A token that does not authenticate is a 401 with DRF's messages;
 * other schemes (Basic from a proxy, …) are ignored, as DRF's token authentication does.
 * @example await authenticate(store, 'Token wlu_…', () => store.read(anonymousAccount))
 */
export async function authenticate(
  store: Pick<Store, 'read'>,
  header: string | undefined,
  anonymous: () => Promise<AccountRow | undefined>,
): Promise<AccountRow> {
  if (header) {
    const parts = header.trim().split(/\s+/);
    const scheme = parts[0]!.toLowerCase();
    if (scheme === 'token' || scheme === 'bearer') {
      if (parts.length === 1) throw authenticationFailed('Invalid token header. No credentials provided.');
      if (parts.length > 2) throw authenticationFailed('Invalid token header. Token string should not contain spaces.');
      const token = parts[1]!;
      const user = await store.read((tx) => accountByToken(tx, token));
      if (!user || user.is_anonymous) throw authenticationFailed('Invalid token.');
      if (!user.is_active) throw authenticationFailed('User inactive or deleted.');
      return user;
    }
  }
  const user = await anonymous();
  // openStore always seeds the anonymous user; a store without one is broken.
  if (!user) throw serverError();
  return user;
}
