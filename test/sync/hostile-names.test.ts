// Files the sync cannot take as they are (names that are not UTF-8 or hold line breaks, links) are refused one by
// one with a reason; the rest of the component loads, and a commit never renames anything upstream.
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition } from '../../src/api/handlers/files.js';
import { openComponent } from '../../src/component/handle.js';
import { State } from '../../src/domain/unit.js';
import { commitPending, editUnit } from '../../src/operations/index.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { findComponent } from '../../src/store/projects.repo.js';
import { listTranslations } from '../../src/store/translations.repo.js';
import { createUser } from '../../src/store/users.repo.js';
import { syncProject } from '../../src/sync/index.js';
import { gitCli, tempDir } from '../helpers/git-repo.js';
import { sqlOn } from '../helpers/store.js';
import { DEMO, helloConfig } from '../helpers/sync-env.js';

describe('hostile file names in the mask', () => {
  let root: string;
  let upstream: string;
  let store: Store;
  const config = () =>
    helloConfig(root, { repo: upstream, filemask: 'translations/*.ts', push_on_commit: true }, { committer: { name: 'tms test', email: 'tms@test.invalid' } });

  beforeAll(async () => {
    root = await tempDir('tms-names-');
    const work = path.join(root, 'work');
    mkdirSync(path.join(work, 'translations'), { recursive: true });
    const cs = path.join(DEMO, 'app', 'translations', 'app_cs.ts');
    cpSync(path.join(DEMO, 'app', 'translations', 'app_de.ts'), path.join(work, 'translations', 'de.ts'));
    // `\xff\xfe.ts`: not UTF-8; `x\ny.ts`: a line break; `fr.ts`: a link to a file outside the mask
    writeFileSync(Buffer.concat([Buffer.from(`${path.join(work, 'translations')}/`), Buffer.from([0xff, 0xfe]), Buffer.from('.ts')]), readFileSync(cs));
    writeFileSync(path.join(work, 'translations', 'x\ny.ts'), readFileSync(cs));
    cpSync(cs, path.join(work, 'cs-elsewhere.ts'));
    symlinkSync('../cs-elsewhere.ts', path.join(work, 'translations', 'fr.ts'));
    await gitCli(work, ['init', '-q', '-b', 'main']);
    await gitCli(work, ['add', '-A']);
    await gitCli(work, ['commit', '-q', '-m', 'hostile names']);
    upstream = path.join(root, 'upstream.git');
    await gitCli(root, ['clone', '-q', '--bare', work, upstream]);
    store = await openStore(path.join(root, 'tms.sqlite'));
  });
  afterAll(async () => {
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  it('refuses each such file with its reason and loads the rest', async () => {
    const [r] = await syncProject(store, config(), 'hello');
    expect(r?.ok).toBe(true);
    expect(r?.files.map((f) => [f.path, f.status])).toEqual([['translations/de.ts', 'parsed']]);
    expect(r?.skipped.map((s) => s.reason).sort()).toEqual([
      'a symbolic link (to cs-elsewhere.ts): tms reads and writes the files themselves',
      'its name holds a control character (a line break, a tab …)',
      'its name is not valid UTF-8 (tms would not write it back under the same name)',
    ]);
    expect(r?.warnings).toHaveLength(3);
    const app = (await store.read((tx) => findComponent(tx, 'hello', 'app')))!;
    expect((await store.read((tx) => listTranslations(tx, app.id))).map((t) => t.language_code).sort()).toEqual(['de', 'en']);
  });

  it('commits an edit without renaming or touching the refused files upstream', async () => {
    const before = await gitCli(upstream, ['ls-tree', '-r', '-z', '--name-only', 'main']);
    const unit = (await sqlOn(store).value(
      "SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.filename = 'translations/de.ts' AND u.source = 'Quit'",
    )) as number;
    const user = (await store.write((tx) => createUser(tx, { username: 'jane', email: 'jane@example.org' }))).user;
    await editUnit(store, { unitId: unit, target: ['Beenden'], state: State.TRANSLATED, user });
    const project = config().projects[0]!;
    const result = await commitPending(await openComponent(store, config(), project, project.components[0]!), { user });
    expect(result.result).toBe(true);
    expect(await gitCli(upstream, ['ls-tree', '-r', '-z', '--name-only', 'main'])).toBe(before);
    expect(await gitCli(upstream, ['diff', '--name-only', 'main~1', 'main'])).toBe('translations/de.ts');
    // the trees tms wrote are what git itself would write (entry order, modes)
    await gitCli(upstream, ['fsck', '--strict', '--no-dangling']);
  });
});

describe('Content-Disposition', () => {
  it("sends a plain name as Weblate does, and any other with RFC 6266's filename* (never a header Node refuses)", () => {
    expect(contentDisposition('hello-app-de.ts', false)).toBe('attachment; filename=hello-app-de.ts');
    expect(contentDisposition('hello-app.zip', true)).toBe('attachment; filename="hello-app.zip"');
    expect(contentDisposition('hello-app-x\ny.ts', false)).toBe(`attachment; filename="hello-app-x_y.ts"; filename*=UTF-8''hello-app-x%0Ay.ts`);
    expect(contentDisposition('hello-app-čš.ts', false)).toBe(`attachment; filename="hello-app-__.ts"; filename*=UTF-8''hello-app-%C4%8D%C5%A1.ts`);
  });
});
