import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../domain/template.js';
import { applyDiscovery, parseConfig } from './config.js';
import { discover, readRule, slugify } from './discovery.js';

const rule = (configuration: Record<string, unknown>) => readRule({ file_format: 'po', ...configuration }).rule!;

describe('discover', () => {
  it('groups paths by the mask their language makes, named from the first path’s groups', () => {
    const found = discover(
      rule({ match: 'locale/(?P<language>[^/]*)/LC_MESSAGES/(?P<component>[^/]*)\\.po', new_base_template: 'locale/{{ component }}.pot' }),
      ['locale/de/LC_MESSAGES/app.po', 'locale/cs/LC_MESSAGES/app.po', 'locale/de/LC_MESSAGES/lib-core.po', 'locale/app.pot', 'README.md'],
    );
    expect(found.map((d) => [d.slug, d.name, d.filemask, d.new_base])).toEqual([
      ['app', 'App', 'locale/*/LC_MESSAGES/app.po', 'locale/app.pot'],
      ['lib-core', 'Lib-Core', 'locale/*/LC_MESSAGES/lib-core.po', 'locale/lib-core.pot'],
    ]);
  });

  it('leaves out paths whose language part fails language_regex, and matches whole paths only', () => {
    const found = discover(rule({ match: '(?P<component>[^/]*)/(?P<language>[^/]*)\\.po', language_regex: '^[a-z]{2}$' }), [
      'app/de.po',
      'app/messages.po',
      'deep/app/de.po',
    ]);
    expect(found.map((d) => d.filemask)).toEqual(['app/*.po']);
  });

  it('refuses rules that cannot work', () => {
    expect(readRule({ match: '(?P<component>[^/]*)/(', file_format: 'po' }).problems).toEqual([
      expect.stringMatching(/^match: is not a valid regular expression/),
    ]);
    expect(readRule({ match: '(?P<language>.*)', file_format: 'po', remove: 'yes', colour: 1 }).problems).toEqual([
      'colour: is not a known key of weblate.discovery.discovery',
      'remove: must be true or false',
      'match: needs a named group "component" ((?P<component>…))',
    ]);
  });

  it('makes slugs as Weblate does and applies Django text filters in templates', () => {
    expect(slugify('Über App: Core')).toBe('uber-app-core');
    expect(renderTemplate('{{ component|title }} / {{ component|upper }} / {{ component|capfirst }}', { component: 'my app' })).toBe(
      'My App / MY APP / My app',
    );
  });
});

describe('copy_addons', () => {
  /** A project whose PO component `main` has the gettext add-ons and a discovery rule (`rule` added to it). */
  const project = (rule: Record<string, unknown>) =>
    parseConfig(
      JSON.stringify({
        projects: [
          {
            name: 'Hello',
            slug: 'hello',
            components: [
              {
                name: 'Main',
                slug: 'main',
                repo: 'https://example.org/app.git',
                filemask: 'main/*.po',
                new_base: 'main/messages.pot',
                file_format: 'po',
                addons: [
                  { name: 'weblate.gettext.msgmerge', configuration: { fuzzy: false } },
                  { name: 'weblate.gettext.mo', configuration: {} },
                  {
                    name: 'weblate.discovery.discovery',
                    configuration: { match: '(?P<component>[^/]*)/(?P<language>[^/.]*)\\.po', file_format: 'po', ...rule },
                  },
                ],
              },
            ],
          },
        ],
      }),
      'tms.config.json',
    );
  const addonsOf = (rule: Record<string, unknown>) => {
    const config = project(rule);
    applyDiscovery(config, 'hello', 'main', ['main/cs.po', 'main/messages.pot', 'lib/cs.po', 'lib/messages.pot']);
    return config.projects[0]!.components.find((c) => c.slug === 'lib')!.addons;
  };

  it("copies the main component's add-ons by default (as Weblate), never the discovery add-on", () => {
    expect(addonsOf({ new_base_template: '{{ component }}/messages.pot' })).toEqual([
      { name: 'weblate.gettext.msgmerge', configuration: { fuzzy: false } },
      { name: 'weblate.gettext.mo', configuration: {} },
    ]);
  });

  it('leaves out an add-on the component found cannot have (msgmerge without a POT), and all with copy_addons false', () => {
    expect(addonsOf({}).map((a) => a.name)).toEqual(['weblate.gettext.mo']);
    expect(addonsOf({ copy_addons: false })).toEqual([]);
    expect(readRule({ match: '(?P<component>.*)/(?P<language>.*)', file_format: 'po', copy_addons: 'yes' }).problems).toEqual([
      'copy_addons: must be true or false',
    ]);
  });
});
