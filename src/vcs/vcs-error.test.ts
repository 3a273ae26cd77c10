import { describe, expect, it } from 'vitest';
import { VcsError, scrub, toVcsError } from './vcs-error.js';

/** An error shaped like isomorphic-git's: `code` equal to the class name and `data`. */
function gitError(code: string, data: Record<string, unknown> = {}, message = code): Error {
  return Object.assign(new Error(message), { code, data });
}

describe('toVcsError', () => {
  it.each([
    [gitError('HttpError', { statusCode: 401 }), 'auth'],
    [gitError('HttpError', { statusCode: 403 }), 'auth'],
    [gitError('HttpError', { statusCode: 404 }), 'not-found'],
    [gitError('HttpError', { statusCode: 502 }), 'network'],
    [gitError('NotFoundError', { what: 'main' }), 'not-found'],
    [gitError('PushRejectedError', { reason: 'not-fast-forward' }), 'rejected'],
    [gitError('GitPushError'), 'rejected'],
    [gitError('MergeConflictError', { filepaths: ['a.po'] }), 'conflict'],
    [gitError('MergeNotSupportedError'), 'conflict'],
    [gitError('CheckoutConflictError', { filepaths: ['b.po'] }), 'conflict'],
    [gitError('ECONNREFUSED'), 'network'],
    [gitError('ENOTFOUND'), 'network'],
    [Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNRESET' } }), 'network'],
  ])('%s → %s', (err, kind) => {
    const mapped = toVcsError(err, { operation: 'fetch', url: 'https://example.com/r.git' });
    expect(mapped).toBeInstanceOf(VcsError);
    expect((mapped as VcsError).data).toMatchObject({ kind, operation: 'fetch', url: 'https://example.com/r.git' });
    expect((mapped as VcsError).code).toBe('VcsError');
  });

  it('keeps the conflicting paths', () => {
    const mapped = toVcsError(gitError('MergeConflictError', { filepaths: ['a.po', 'b.po'] }), { operation: 'merge' });
    expect((mapped as VcsError).data.paths).toEqual(['a.po', 'b.po']);
  });

  it('leaves errors it does not know unchanged', () => {
    const bug = new TypeError('x is undefined');
    expect(toVcsError(bug, { operation: 'fetch' })).toBe(bug);
  });

  it('scrubs secrets out of the detail', () => {
    const mapped = toVcsError(gitError('HttpError', { statusCode: 401 }, 'token hunter2 refused'), {
      operation: 'push',
      secrets: ['hunter2'],
    });
    expect((mapped as VcsError).data.detail).toBe('HttpError: token *** refused');
  });
});

describe('scrub', () => {
  it('replaces raw and percent-encoded secrets', () => {
    expect(scrub('a p@ss b p%40ss', ['p@ss'])).toBe('a *** b ***');
  });
});
