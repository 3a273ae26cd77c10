// `tms discover`: proposals compared with Debian's translation finder on every corpus project (deliberate differences
// named and each needed), and the command run on a working tree and on a git upstream it clones.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Proposal, discoverComponents } from '../../src/discover/discover.js';
import { getFormat } from '../../src/formats/registry.js';
import { runCli } from '../helpers/cli.js';
import { corpusDir, describeCorpus } from '../helpers/corpus.js';
import { createUpstream, gitCli, tempDir } from '../helpers/git-repo.js';
import { startGitServer } from '../helpers/git-server.js';

const finder = spawnSync('weblate-discover', ['--help'], { encoding: 'utf8' }).status === 0;
if (!finder) console.warn('[skip] translation finder comparison: weblate-discover is not installed (Debian package python3-translation-finder)');

/** Reads `weblate-discover` output: `== Match N ==` blocks of `key : value` lines. */
function translationFinder(dir: string): Proposal[] {
  const out = spawnSync('weblate-discover', [dir], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  const proposals: Proposal[] = [];
  for (const block of out.stdout.split(/^== Match \d+ ==$/m).slice(1)) {
    const fields: Record<string, string> = {};
    for (const m of block.matchAll(/^(\w+)\s*: (.*)$/gm)) fields[m[1]!] = m[2]!;
    proposals.push({
      filemask: fields.filemask ?? '',
      file_format: fields.file_format ?? '',
      template: fields.template ?? '',
      new_base: fields.new_base ?? '',
    });
  }
  return proposals;
}

function ours(dir: string): Proposal[] {
  const paths = fg.sync('**/*', { cwd: dir, dot: false });
  return discoverComponents({ paths, read: (p) => readFileSync(path.join(dir, p)) });
}

/**
 * Where tms proposes otherwise, on purpose. `missing`: a finder proposal tms does not make; `extra`: one tms makes
 * that the finder does not.
 */
const DIFFERENCES: { name: string; missing?: (p: Proposal) => boolean; extra?: (p: Proposal) => boolean }[] = [
  {
    // finder 1.0 reads `messages.de_CH.xlf` as `messages.de_` + Chamorro (`CH`): tms reads the dotted code
    name: 'dotted language codes',
    missing: (p) => p.file_format === 'xliff' && /\.[a-z]{2}_\*\.xlf$/.test(p.filemask),
    extra: (p) => p.file_format === 'xliff' && /\/[^/*]+\.\*\.xlf$/.test(p.filemask),
  },
  { name: 'stringsdict', extra: (p) => p.file_format === 'stringsdict' },
  { name: 'JSON family', extra: (p) => ['json', 'json-nested', 'i18next', 'i18nextv4'].includes(p.file_format) },
  { name: 'TBX glossaries', extra: (p) => p.file_format === 'tbx' },
  {
    // the finder proposes the source-language `_en.ts` as template, which makes every source empty (see below)
    name: 'Qt TS bilingual',
    missing: (p) => p.file_format === 'ts' && p.template !== '',
    extra: (p) => p.file_format === 'ts' && p.template === '',
  },
];

const key = (p: Proposal) => JSON.stringify([p.filemask, p.file_format, p.template, p.new_base]);

describeCorpus('tms discover over the corpus', (corpus) => {
  const projects = readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

  it('proposes the masks the corpus README gives for the mobile projects', () => {
    expect(ours(path.join(corpus, 'TeamNewPipe-NewPipe'))).toEqual([
      { filemask: 'app/src/main/res/values-*/strings.xml', file_format: 'aresource', template: 'app/src/main/res/values/strings.xml', new_base: '' },
    ]);
    const ios = ours(path.join(corpus, 'mastodon-mastodon-ios'));
    const L10N = 'MastodonSDK/Sources/MastodonLocalization/Resources';
    expect(ios).toContainEqual({
      filemask: `${L10N}/*.lproj/Localizable.strings`,
      file_format: 'strings-utf8',
      template: `${L10N}/Base.lproj/Localizable.strings`,
      new_base: '',
    });
    expect(ios).toContainEqual({
      filemask: `${L10N}/*.lproj/Localizable.stringsdict`,
      file_format: 'stringsdict',
      template: `${L10N}/Base.lproj/Localizable.stringsdict`,
      new_base: '',
    });
    expect(ios).toContainEqual({
      filemask: 'Mastodon/Supporting Files/Settings.bundle/*.lproj/Root.strings',
      file_format: 'strings',
      template: 'Mastodon/Supporting Files/Settings.bundle/en.lproj/Root.strings',
      new_base: '',
    });
  });

  it('proposes an XLIFF template as the base for new languages too (XLIFF has no empty skeleton)', () => {
    expect(ours(path.join(corpus, 'kimai-kimai'))).toContainEqual({
      filemask: 'translations/messages.*.xlf',
      file_format: 'xliff',
      template: 'translations/messages.en.xlf',
      new_base: 'translations/messages.en.xlf',
    });
    expect(ours(path.join(corpus, 'ghostfolio-ghostfolio'))).toEqual([
      {
        filemask: 'apps/client/src/locales/messages.*.xlf',
        file_format: 'xliff',
        template: 'apps/client/src/locales/messages.xlf',
        new_base: 'apps/client/src/locales/messages.xlf',
      },
    ]);
  });

  it('proposes Qt TS bilingual with the source-language file as new_base: as a template, every source would be empty', () => {
    expect(ours(path.join(corpus, 'keepassxreboot-keepassxc'))).toEqual([
      { filemask: 'share/translations/keepassxc_*.ts', file_format: 'ts', template: '', new_base: 'share/translations/keepassxc_en.ts' },
    ]);
    expect(ours(path.join(corpus, 'flameshot-org-flameshot'))).toEqual([
      { filemask: 'data/translations/Internationalization_*.ts', file_format: 'ts', template: '', new_base: 'data/translations/Internationalization_en.ts' },
    ]);
    // why: a monolingual TS takes each source from the template's translation (Weblate's TTKitUnit.source), and
    // KeePassXC's keepassxc_en.ts has only unfinished, empty ones
    const ts = getFormat('ts');
    const dir = path.join(corpus, 'keepassxreboot-keepassxc', 'share', 'translations');
    const en = 'share/translations/keepassxc_en.ts';
    const template = ts.parseTemplate(readFileSync(path.join(dir, 'keepassxc_en.ts')), { filename: en, language: 'en', sourceLanguage: 'en' }, false);
    const de = { filename: 'share/translations/keepassxc_de.ts', language: 'de', sourceLanguage: 'en' };
    const bytes = readFileSync(path.join(dir, 'keepassxc_de.ts'));
    const mono = ts.parse(bytes, { ...de, template });
    expect(mono.units.length).toBeGreaterThan(2000);
    expect(mono.units.filter((u) => u.source.some((text) => text !== ''))).toHaveLength(0);
    const bilingual = ts.parse(bytes, de);
    expect(bilingual.units.filter((u) => u.source[0] === '')).toHaveLength(0);
  });

  it('proposes the language_code_style new files need to be named as the files are, where the format’s default differs', async () => {
    // tms discover on a corpus folder (no git repository: proposals with a warning), the configuration to paste
    const styles = async (project: string) => {
      const r = await runCli(['discover', path.join(corpus, project)]);
      expect(r.code, r.stderr.join('\n')).toBe(0);
      return Object.fromEntries(JSON.parse(r.stdout.join('\n')).map((c: { slug: string; language_code_style?: string }) => [c.slug, c.language_code_style]));
    };
    // Symfony's messages.pt_BR.xlf where XLIFF would name a new file messages.pt-PT.xlf
    expect(await styles('kimai-kimai')).toEqual({ daterangepicker: 'posix', messages: 'posix', validators: 'posix' });
    // pt-BR.json where JSON would write pt_PT.json (uptime-kuma: six files with "-", en_GB with "_")
    expect(await styles('excalidraw-excalidraw')).toEqual({ locales: 'bcp' });
    expect(await styles('louislam-uptime-kuma')).toEqual({ lang: 'bcp' });
    // i18next's default is pt-BR, Lemmy's frontend has pt_BR.json and zh_Hant.json; its flat JSON backend is the default
    expect(await styles('LemmyNet-lemmy-translations')).toEqual({ backend: undefined, frontend: 'posix' });
    // zh-Hans.lproj: .strings names new folders so already, .stringsdict would make pt_PT.lproj beside pt-PT.lproj
    expect(await styles('mastodon-mastodon-ios')).toMatchObject({ localizable: undefined, 'localizable-2': 'bcp' });
    // the defaults fit: nothing added (PO and Qt TS pt_BR, Android values-pt-rBR, TBX zh_Hans)
    for (const project of ['MidnightCommander-mc', 'keepassxreboot-keepassxc', 'TeamNewPipe-NewPipe', 'Slicer-SlicerLanguageTranslations']) {
      expect(
        Object.values(await styles(project)).filter((s) => s !== undefined),
        project,
      ).toEqual([]);
    }
  });

  it('leaves out with language_regex a file whose name is no language (excalidraw’s percentages.json), and syncs without it', async () => {
    const r = await runCli(['discover', path.join(corpus, 'excalidraw-excalidraw')]);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const components = JSON.parse(r.stdout.join('\n'));
    expect(components).toEqual([expect.objectContaining({ filemask: 'packages/excalidraw/locales/*.json', language_regex: '^(?!(?:percentages)$)[^.]+$' })]);
    // every other corpus project names only languages: Weblate's default stays (pt-rBR, sr@latin, hy-AM, de_DE, Base)
    for (const project of ['TeamNewPipe-NewPipe', 'qbittorrent-qBittorrent', 'mastodon-mastodon-ios', 'flameshot-org-flameshot', 'audacity-audacity']) {
      const other = await runCli(['discover', path.join(corpus, project)]);
      expect(
        JSON.parse(other.stdout.join('\n')).filter((c: { language_regex?: string }) => c.language_regex !== undefined),
        project,
      ).toEqual([]);
    }
    // pasted into a project on a repository of those files, the sync reads the eight languages and not percentages.json
    const root = await tempDir('tms-discover-regex-');
    const upstream = path.join(root, 'excalidraw.git');
    const files: Record<string, string> = {};
    for (const name of readdirSync(path.join(corpus, 'excalidraw-excalidraw', 'packages', 'excalidraw', 'locales'))) {
      files[`packages/excalidraw/locales/${name}`] = readFileSync(
        path.join(corpus, 'excalidraw-excalidraw', 'packages', 'excalidraw', 'locales', name),
        'utf8',
      );
    }
    await createUpstream({ dir: upstream, files });
    const config = path.join(root, 'tms.config.json');
    const component = { ...components[0], repo: upstream };
    writeFileSync(
      config,
      JSON.stringify({ database: 'tms.sqlite', repos_dir: 'repos', projects: [{ name: 'Excalidraw', slug: 'excalidraw', components: [component] }] }),
    );
    const sync = await runCli(['--config', config, 'sync', 'excalidraw', '--threads', '1']);
    await rm(root, { recursive: true, force: true });
    expect(sync.code, sync.stderr.join('\n')).toBe(0);
    expect(sync.stdout.find((l) => l.includes(' files '))).toContain('8 files (8 parsed)');
  });

  it('notes masks that differ only in letter case (Mastodon’s infoPlist.strings and InfoPlist.strings)', async () => {
    const r = await runCli(['discover', path.join(corpus, 'mastodon-mastodon-ios'), '--json']);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const notes = r.stderr.filter((l) => l.includes('differ only in letter case'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Mastodon/Resources/*.lproj/infoPlist.strings and Mastodon/Resources/*.lproj/InfoPlist.strings');
    const other = await runCli(['discover', path.join(corpus, 'kimai-kimai'), '--json']);
    expect(other.stderr.filter((l) => l.includes('letter case'))).toEqual([]);
  });

  it('proposes a TBX component as a glossary (is_glossary), which tms check accepts', async () => {
    const r = await runCli(['discover', path.join(corpus, 'Slicer-SlicerLanguageTranslations')]);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const components = JSON.parse(r.stdout.join('\n'));
    expect(components).toEqual([expect.objectContaining({ filemask: 'glossary/*.tbx', file_format: 'tbx', is_glossary: true })]);
    const root = await tempDir('tms-discover-glossary-');
    const config = path.join(root, 'tms.config.json');
    writeFileSync(config, JSON.stringify({ projects: [{ name: 'Slicer', slug: 'slicer', components }] }));
    const check = await runCli(['--config', config, 'check']);
    await rm(root, { recursive: true, force: true });
    expect(check.code, check.stderr.join('\n')).toBe(0);
  });

  (finder ? describe : describe.skip)('against Debian’s translation finder (weblate-discover)', () => {
    const used = new Set<string>();
    for (const project of projects) {
      it(`${project}: the finder's proposals, but for the listed differences`, () => {
        const dir = path.join(corpus, project);
        const theirs = translationFinder(dir);
        const mine = ours(dir);
        const mineKeys = new Set(mine.map(key));
        const theirKeys = new Set(theirs.map(key));
        for (const p of theirs) {
          if (mineKeys.has(key(p))) continue;
          const rule = DIFFERENCES.find((d) => d.missing?.(p));
          expect(rule, `missing ${key(p)}`).toBeDefined();
          used.add(rule!.name);
        }
        for (const p of mine) {
          if (theirKeys.has(key(p))) continue;
          const rule = DIFFERENCES.find((d) => d.extra?.(p));
          expect(rule, `extra ${key(p)}`).toBeDefined();
          used.add(rule!.name);
        }
      });
    }
    it('each listed difference occurs in the corpus', () => {
      expect([...used].sort()).toEqual(DIFFERENCES.map((d) => d.name).sort());
    });
  });
});

describe('tms discover (the command)', () => {
  let root: string;
  let upstream: string;
  beforeAll(async () => {
    root = await tempDir('tms-discover-');
    upstream = path.join(root, 'app.git');
    await createUpstream({
      dir: upstream,
      files: {
        'app/src/main/res/values/strings.xml': '<resources><string name="a">A</string></resources>\n',
        'app/src/main/res/values-de/strings.xml': '<resources><string name="a">Ä</string></resources>\n',
        'ios/Base.lproj/Localizable.strings': '"a" = "A";\n',
      },
    });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('clones a repository and prints the proposals as JSON', async () => {
    const r = await runCli(['discover', upstream, '--json']);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    expect(JSON.parse(r.stdout.join('\n'))).toEqual([
      { filemask: 'app/src/main/res/values-*/strings.xml', file_format: 'aresource', template: 'app/src/main/res/values/strings.xml', new_base: '' },
      { filemask: 'ios/*.lproj/Localizable.strings', file_format: 'strings-utf8', template: 'ios/Base.lproj/Localizable.strings', new_base: '' },
    ]);
  });

  it('prints component configuration to paste, which tms check accepts', async () => {
    const r = await runCli(['discover', upstream]);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    // standard output is JSON from its first line (pasted or redirected whole); the hint is on standard error
    const components = JSON.parse(r.stdout.join('\n'));
    expect(r.stderr.join('\n')).toContain('2 components found');
    expect(components.map((c: { slug: string }) => c.slug)).toEqual(['strings', 'localizable']);
    const config = path.join(root, 'tms.config.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(config, JSON.stringify({ projects: [{ name: 'App', slug: 'app', components }] }));
    const check = await runCli(['--config', config, 'check']);
    expect(check.code, check.stderr.join('\n')).toBe(0);
  });

  it('with --project, the components after the first share its repository (one working copy), which tms check accepts', async () => {
    const r = await runCli(['discover', upstream, '--project', 'app']);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const components = JSON.parse(r.stdout.join('\n'));
    expect(components.map((c: { repo: string }) => c.repo)).toEqual([upstream, 'weblate://app/strings']);
    const config = path.join(root, 'tms.linked.json');
    writeFileSync(config, JSON.stringify({ projects: [{ name: 'App', slug: 'app', components }] }));
    const check = await runCli(['--config', config, 'check']);
    expect(check.code, check.stderr.join('\n')).toBe(0);
    expect(check.stdout.join('\n')).toContain('from weblate://app/strings');
    const bad = await runCli(['discover', upstream, '--project', 'no/slug']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.join('\n')).toContain('invalid project slug');
  });

  it('an http(s) URL with credentials: cloned with them, proposed without them, and a note says what to add', async () => {
    const credentials = { username: 'jane', password: 's3cret-pass' };
    const server = await startGitServer({ root, auth: credentials });
    try {
      const r = await runCli(['discover', server.url('app.git', credentials)]);
      expect(r.code, r.stderr.join('\n')).toBe(0);
      const repos = JSON.parse(r.stdout.join('\n')).map((c: { repo: string }) => c.repo);
      expect(repos).toEqual([server.url('app.git'), server.url('app.git')]);
      expect(r.stdout.join('\n')).not.toContain('s3cret-pass');
      expect(r.stderr.join('\n')).toContain('the credentials in the URL are left out of "repo"');
      expect(r.stderr.join('\n')).not.toContain('s3cret-pass');
    } finally {
      await server.close();
    }
  });

  it('a working tree’s subfolder: masks named from the repository root, which is the repo to clone', async () => {
    const tree = path.join(root, 'tree');
    await gitCli(root, ['clone', '--quiet', upstream, tree]);
    mkdirSync(path.join(tree, 'po'));
    writeFileSync(path.join(tree, 'po', 'app.pot'), 'msgid ""\nmsgstr ""\n\nmsgid "A"\nmsgstr ""\n');
    writeFileSync(path.join(tree, 'po', 'de.po'), 'msgid ""\nmsgstr ""\n\nmsgid "A"\nmsgstr "Ä"\n');
    const r = await runCli(['discover', path.join(tree, 'po')]);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    expect(JSON.parse(r.stdout.join('\n'))).toEqual([
      { name: 'po', slug: 'po', vcs: 'git', repo: tree, filemask: 'po/*.po', file_format: 'po', new_base: 'po/app.pot' },
    ]);
    // pushing into the working tree's checked-out branch is refused by git: the note says so before anyone commits
    expect(r.stderr.join('\n')).toContain(`"repo" is the working tree ${tree}`);
    expect(r.stderr.join('\n')).toContain('git refuses pushes into its checked-out branch');
  });

  it('a folder in no repository: the proposals, and a warning that tms sync needs a repository', async () => {
    const plain = path.join(root, 'plain');
    mkdirSync(path.join(plain, 'po'), { recursive: true });
    writeFileSync(path.join(plain, 'po', 'de.po'), 'msgid ""\nmsgstr ""\n\nmsgid "A"\nmsgstr "Ä"\n');
    const r = await runCli(['discover', plain, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.join('\n'))).toEqual([{ filemask: 'po/*.po', file_format: 'po', template: '', new_base: '' }]);
    expect(r.stderr.join('\n')).toContain('not in a git repository');
  });

  it('a Transifex project: the resources of .tx/config, as the translation finder proposes them', async () => {
    const tx = path.join(root, 'tx');
    const files: Record<string, string> = {
      '.tx/config': [
        '[main]',
        'host = https://www.transifex.com',
        '',
        '[app.django]',
        'file_filter = locale/<lang>/LC_MESSAGES/django.po',
        'source_file = locale/en/LC_MESSAGES/django.po',
        'source_lang = en',
        'type = PO',
        '',
        '[o:org:p:app:r:ios]',
        'file_filter = ios/<lang>.lproj/Localizable.strings',
        'source_file = ios/en.lproj/Localizable.strings',
        'type = STRINGS',
        '',
        '[app.web]',
        'file_filter = web/<lang>.json',
        'type = KEYVALUEJSON',
        '',
      ].join('\n'),
      'locale/en/LC_MESSAGES/django.po': 'msgid ""\nmsgstr ""\n',
      'locale/de/LC_MESSAGES/django.po': 'msgid ""\nmsgstr ""\n',
      'ios/en.lproj/Localizable.strings': '"a" = "A";\n',
      'ios/de.lproj/Localizable.strings': '"a" = "Ä";\n',
      'web/en.json': '{"a": {"b": "B"}}\n',
      'web/de.json': '{"a": {"b": "Ä"}}\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tx, file)), { recursive: true });
      writeFileSync(path.join(tx, file), text);
    }
    const r = await runCli(['discover', tx, '--json']);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const mine = JSON.parse(r.stdout.join('\n')) as Proposal[];
    expect(mine.slice(0, 3)).toEqual([
      { filemask: 'locale/*/LC_MESSAGES/django.po', file_format: 'po', template: 'locale/en/LC_MESSAGES/django.po', new_base: '' },
      { filemask: 'ios/*.lproj/Localizable.strings', file_format: 'strings', template: 'ios/en.lproj/Localizable.strings', new_base: '' },
      { filemask: 'web/*.json', file_format: 'json-nested', template: 'web/en.json', new_base: '' },
    ]);
    if (!finder) return;
    // the finder lists a mask again for each of its rules that finds it; tms proposes it once, as .tx/config says
    const seen = new Set<string>();
    const theirs = translationFinder(tx).filter((p) => !seen.has(p.filemask) && seen.add(p.filemask));
    expect(theirs.slice(0, 3)).toEqual(mine.slice(0, 3));
    // tms's own rules beyond the finder's (here: the JSON family) find nothing more
    expect(mine.slice(3).filter((p) => !seen.has(p.filemask))).toEqual([]);
  });

  it('answers a path that is no repository with one error line', async () => {
    const r = await runCli(['discover', path.join(root, 'missing')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toHaveLength(1);
  });
});

if (!corpusDir()) console.warn('[skip] tms discover corpus comparison: ../shared/corpus is absent');
