// Which requests a serving worker of `tms serve --workers N` hands to the leader.
import { describe, expect, it } from 'vitest';
import { leaderOnly } from './forward.js';

describe('leaderOnly', () => {
  it('keeps reads, pages and unit edits on the worker', () => {
    for (const [method, url] of [
      ['GET', '/api/translations/hello/app/de/units/?page=2'],
      ['GET', '/api/units/9/'],
      ['HEAD', '/api/projects/hello/'],
      ['PATCH', '/api/units/9/'],
      ['PUT', '/api/units/9/'],
      ['GET', '/translate/hello/app/de/'],
      ['POST', '/translate/hello/app/de/'],
      ['POST', '/accounts/login/'],
      ['GET', '/projects/hello/app/'],
    ]) {
      expect(leaderOnly(method, url!), `${method} ${url}`).toBe(false);
    }
  });

  it('sends webhooks, health, repository work, files and other API writes to the leader', () => {
    for (const [method, url] of [
      ['POST', '/hooks/github/'],
      ['GET', '/healthz'],
      ['POST', '/api/components/hello/app/repository/'],
      ['GET', '/api/components/hello/app/repository/'],
      ['GET', '/api/translations/hello/app/de/file/'],
      ['GET', '/api/components/hello/app/file/?format=zip'],
      ['POST', '/api/translations/hello/app/de/file/'],
      ['POST', '/api/components/hello/app/translations/'],
      ['POST', '/api/translations/hello/app/de/units/'],
      ['DELETE', '/api/units/9/'],
      ['POST', '/api/components/hello/app/lock/'],
      ['GET', '/repository/hello/app/'],
      ['POST', '/repository/hello/app/'],
      ['POST', '/upload/hello/app/de/'],
    ]) {
      expect(leaderOnly(method, url!), `${method} ${url}`).toBe(true);
    }
  });
});
