// Versioned schema migrations, applied in order on open; PRAGMA user_version records the last one applied.

/**
 * A unit's text as the search's index (units_fts) holds it: lowercased as JavaScript's toLowerCase does (tms_lower,
 * what tms_icontains compares), by SQLite's own lower() where the text is ASCII only (as many characters as bytes:
 * there the two agree), which spares a call into JavaScript for most sources and contexts.
 * @example searchText('new.source')
 */
export function searchText(column: string): string {
  return `CASE WHEN length(${column}) = octet_length(${column}) THEN lower(${column}) ELSE tms_lower(${column}) END`;
}

/** Each entry moves the schema from version i to i+1. Never edit a released migration: append a new one. */
export const MIGRATIONS: readonly string[] = [
  // 1: the initial schema
  `
  CREATE TABLE languages (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    direction TEXT NOT NULL DEFAULT 'ltr',
    population INTEGER NOT NULL DEFAULT 0,
    plural_number INTEGER NOT NULL,
    plural_formula TEXT NOT NULL,
    plural_type INTEGER NOT NULL,
    plural_source INTEGER NOT NULL DEFAULT 0,
    aliases TEXT NOT NULL DEFAULT '[]',
    generated INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    created TEXT NOT NULL
  );

  CREATE TABLE components (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    locked INTEGER NOT NULL DEFAULT 0,
    -- commit of the working copy the store was last synced from
    synced_commit TEXT,
    created TEXT NOT NULL,
    UNIQUE (project_id, slug)
  );

  CREATE TABLE translations (
    id INTEGER PRIMARY KEY,
    component_id INTEGER NOT NULL REFERENCES components(id) ON DELETE CASCADE,
    language_id INTEGER NOT NULL REFERENCES languages(id),
    language_code TEXT NOT NULL,
    filename TEXT NOT NULL DEFAULT '',
    -- git blob id(s) of the file (and template) last parsed
    revision TEXT NOT NULL DEFAULT '',
    is_source INTEGER NOT NULL DEFAULT 0,
    is_template INTEGER NOT NULL DEFAULT 0,
    parse_error TEXT,
    UNIQUE (component_id, language_id)
  );

  CREATE TABLE units (
    id INTEGER PRIMARY KEY,
    translation_id INTEGER NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
    id_hash INTEGER NOT NULL,
    content_hash INTEGER NOT NULL,
    context TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    target TEXT NOT NULL DEFAULT '',
    previous_source TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    flags TEXT NOT NULL DEFAULT '',
    extra_flags TEXT NOT NULL DEFAULT '',
    explanation TEXT NOT NULL DEFAULT '',
    source_explanation TEXT NOT NULL DEFAULT '',
    state INTEGER NOT NULL DEFAULT 0,
    original_state INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL,
    num_words INTEGER NOT NULL DEFAULT 0,
    num_chars INTEGER NOT NULL DEFAULT 0,
    priority INTEGER NOT NULL DEFAULT 100,
    -- an edit made in tms and not yet written to the file and committed
    pending INTEGER NOT NULL DEFAULT 0,
    pending_author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    timestamp TEXT NOT NULL,
    UNIQUE (translation_id, id_hash)
  );
  CREATE INDEX units_position ON units (translation_id, position);
  CREATE INDEX units_pending ON units (translation_id) WHERE pending = 1;

  CREATE TABLE translation_stats (
    translation_id INTEGER PRIMARY KEY REFERENCES translations(id) ON DELETE CASCADE,
    total INTEGER NOT NULL DEFAULT 0, total_words INTEGER NOT NULL DEFAULT 0, total_chars INTEGER NOT NULL DEFAULT 0,
    translated INTEGER NOT NULL DEFAULT 0, translated_words INTEGER NOT NULL DEFAULT 0, translated_chars INTEGER NOT NULL DEFAULT 0,
    fuzzy INTEGER NOT NULL DEFAULT 0, fuzzy_words INTEGER NOT NULL DEFAULT 0, fuzzy_chars INTEGER NOT NULL DEFAULT 0,
    approved INTEGER NOT NULL DEFAULT 0, approved_words INTEGER NOT NULL DEFAULT 0, approved_chars INTEGER NOT NULL DEFAULT 0,
    readonly INTEGER NOT NULL DEFAULT 0, readonly_words INTEGER NOT NULL DEFAULT 0, readonly_chars INTEGER NOT NULL DEFAULT 0,
    failing INTEGER NOT NULL DEFAULT 0, failing_words INTEGER NOT NULL DEFAULT 0,
    suggestions INTEGER NOT NULL DEFAULT 0, comments INTEGER NOT NULL DEFAULT 0,
    last_change TEXT, last_author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    recent_changes INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    full_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    is_superuser INTEGER NOT NULL DEFAULT 0,
    is_active INTEGER NOT NULL DEFAULT 1,
    is_bot INTEGER NOT NULL DEFAULT 0,
    is_anonymous INTEGER NOT NULL DEFAULT 0,
    -- SHA-256 of the API token; the token itself is shown once and never stored
    token_hash TEXT UNIQUE,
    date_joined TEXT NOT NULL,
    last_login TEXT
  );

  CREATE TABLE roles (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    permissions TEXT NOT NULL DEFAULT '[]'
  );

  CREATE TABLE groups (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    defining_project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    project_selection INTEGER NOT NULL DEFAULT 0,
    language_selection INTEGER NOT NULL DEFAULT 0,
    internal INTEGER NOT NULL DEFAULT 0,
    enforced_2fa INTEGER NOT NULL DEFAULT 0,
    UNIQUE (name, defining_project_id)
  );
  CREATE TABLE group_roles (group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE, role_id INTEGER NOT NULL REFERENCES roles(id) ON DELETE CASCADE, PRIMARY KEY (group_id, role_id));
  CREATE TABLE group_projects (group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE, project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE, PRIMARY KEY (group_id, project_id));
  CREATE TABLE group_languages (group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE, language_id INTEGER NOT NULL REFERENCES languages(id) ON DELETE CASCADE, PRIMARY KEY (group_id, language_id));
  CREATE TABLE group_components (group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE, component_id INTEGER NOT NULL REFERENCES components(id) ON DELETE CASCADE, PRIMARY KEY (group_id, component_id));
  CREATE TABLE user_groups (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE, PRIMARY KEY (user_id, group_id));

  CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    timestamp TEXT NOT NULL,
    action INTEGER NOT NULL,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    component_id INTEGER REFERENCES components(id) ON DELETE CASCADE,
    translation_id INTEGER REFERENCES translations(id) ON DELETE CASCADE,
    unit_id INTEGER REFERENCES units(id) ON DELETE SET NULL,
    language_id INTEGER REFERENCES languages(id),
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    target TEXT NOT NULL DEFAULT '',
    old TEXT NOT NULL DEFAULT '',
    details TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX changes_time ON changes (timestamp DESC, id DESC);
  CREATE INDEX changes_component ON changes (component_id, timestamp DESC, id DESC);
  CREATE INDEX changes_translation ON changes (translation_id, timestamp DESC, id DESC);
  CREATE INDEX changes_project ON changes (project_id, timestamp DESC, id DESC);

  CREATE TABLE addons (
    id INTEGER PRIMARY KEY,
    component_id INTEGER REFERENCES components(id) ON DELETE CASCADE,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    configuration TEXT NOT NULL DEFAULT '{}',
    CHECK ((component_id IS NULL) <> (project_id IS NULL))
  );

  CREATE TABLE alerts (
    id INTEGER PRIMARY KEY,
    component_id INTEGER NOT NULL REFERENCES components(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    details TEXT NOT NULL DEFAULT '{}',
    timestamp TEXT NOT NULL,
    UNIQUE (component_id, name)
  );
  `,
  // 2: strings deleted in tms whose removal from the file waits for the next commit
  `
  CREATE TABLE pending_removals (
    id INTEGER PRIMARY KEY,
    translation_id INTEGER NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
    id_hash INTEGER NOT NULL,
    context TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    timestamp TEXT NOT NULL,
    UNIQUE (translation_id, id_hash)
  );
  `,
  // 3: a unit's changes (its history, and whether tms added it) without scanning the log
  `
  CREATE INDEX changes_unit ON changes (unit_id) WHERE unit_id IS NOT NULL;
  `,
  // 4: failing quality checks per unit (Weblate's Check: name, dismissed)
  `
  CREATE TABLE checks (
    unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    dismissed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (unit_id, name)
  ) WITHOUT ROWID;
  CREATE INDEX checks_name ON checks (name, dismissed);
  `,
  // 5: the translations of one string across a project's components (the inconsistent check)
  `
  CREATE INDEX units_string ON units (source, context);
  `,
  // 6: web sign-in: a password hash per user, and browser sessions (the cookie's token stored as SHA-256)
  `
  ALTER TABLE users ADD COLUMN password_hash TEXT;
  CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created TEXT NOT NULL,
    expires TEXT NOT NULL
  );
  CREATE INDEX sessions_user ON sessions (user_id);
  `,
  // 7: webhook deliveries already handled: a redelivery after a restart does not queue a second update
  `
  CREATE TABLE hook_deliveries (
    id INTEGER PRIMARY KEY,
    delivery TEXT NOT NULL UNIQUE,
    received TEXT NOT NULL
  );
  `,
  // 8: suggestions (with votes) and comments per string; the translation memory (distinct source texts with a
  // trigram index, imported entries, units' translations deleted from it); component lists
  `
  CREATE TABLE suggestions (
    id INTEGER PRIMARY KEY,
    unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    timestamp TEXT NOT NULL
  );
  CREATE INDEX suggestions_unit ON suggestions (unit_id);
  CREATE TABLE suggestion_votes (
    suggestion_id INTEGER NOT NULL REFERENCES suggestions(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    value INTEGER NOT NULL,
    PRIMARY KEY (suggestion_id, user_id)
  ) WITHOUT ROWID;

  -- a comment on a source string (source = 1) shows on that string in every translation of its component
  CREATE TABLE comments (
    id INTEGER PRIMARY KEY,
    unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,
    component_id INTEGER NOT NULL REFERENCES components(id) ON DELETE CASCADE,
    id_hash INTEGER NOT NULL,
    source INTEGER NOT NULL DEFAULT 0,
    comment TEXT NOT NULL,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    timestamp TEXT NOT NULL,
    resolved INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX comments_unit ON comments (unit_id);
  CREATE INDEX comments_source ON comments (component_id, id_hash) WHERE source = 1;

  -- The translation memory. The project's own translations are not copied: they are read from the units at lookup
  -- time (translated units of non-source translations, see memory.repo.ts). Stored here is only what units cannot
  -- give: the distinct source texts under a trigram index (the pre-filter; fed from source strings and imports),
  -- the imported entries, and which units' translations were deleted from the memory.
  CREATE TABLE memory_sources (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE,
    length INTEGER NOT NULL
  );
  CREATE VIRTUAL TABLE memory_fts USING fts5(text, content='memory_sources', content_rowid='id', tokenize='trigram');
  CREATE TRIGGER memory_sources_ai AFTER INSERT ON memory_sources BEGIN
    INSERT INTO memory_fts (rowid, text) VALUES (new.id, new.text);
  END;
  CREATE TRIGGER memory_sources_ad AFTER DELETE ON memory_sources BEGIN
    INSERT INTO memory_fts (memory_fts, rowid, text) VALUES ('delete', old.id, old.text);
  END;

  -- imported entries (TMX, Weblate JSON): Weblate's Memory with from_file set; origin is the imported file's name
  CREATE TABLE memory (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES memory_sources(id),
    source_language_id INTEGER NOT NULL REFERENCES languages(id) ON DELETE CASCADE,
    target_language_id INTEGER NOT NULL REFERENCES languages(id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT '',
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
    from_file INTEGER NOT NULL DEFAULT 1,
    shared INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX memory_lookup ON memory (source_id, source_language_id, target_language_id);
  CREATE INDEX memory_project ON memory (project_id);

  -- a unit's translation deleted from the memory (DELETE /api/memory/<id>/): hidden while the unit keeps that target
  CREATE TABLE memory_hidden (
    unit_id INTEGER PRIMARY KEY REFERENCES units(id) ON DELETE CASCADE,
    target TEXT NOT NULL
  );

  CREATE TABLE component_lists (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    slug TEXT NOT NULL UNIQUE,
    show_dashboard INTEGER NOT NULL DEFAULT 1
  );
  CREATE TABLE component_list_components (
    list_id INTEGER NOT NULL REFERENCES component_lists(id) ON DELETE CASCADE,
    component_id INTEGER NOT NULL REFERENCES components(id) ON DELETE CASCADE,
    PRIMARY KEY (list_id, component_id)
  ) WITHOUT ROWID;
  CREATE TABLE component_list_rules (
    id INTEGER PRIMARY KEY,
    list_id INTEGER NOT NULL REFERENCES component_lists(id) ON DELETE CASCADE,
    project_match TEXT NOT NULL DEFAULT '^$',
    component_match TEXT NOT NULL DEFAULT '^$'
  );

  -- the source strings already stored join the pre-filter index at once
  INSERT OR IGNORE INTO memory_sources (text, length)
  SELECT u.source, length(u.source) FROM units u JOIN translations t ON t.id = u.translation_id
  WHERE t.is_source = 1 AND u.source <> '';
  `,
  // 9: component updates webhooks asked for that have not finished (run again after a restart)
  `
  CREATE TABLE requested_updates (
    project TEXT NOT NULL,
    component TEXT NOT NULL,
    requested TEXT NOT NULL,
    -- raised by every request: an update that read its value at start forgets only the requests made before it
    seq INTEGER NOT NULL,
    PRIMARY KEY (project, component)
  ) WITHOUT ROWID;
  `,
  // 10: facts about the store itself (which bundled language data it was seeded from)
  `
  CREATE TABLE store_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 11: a translation's own plural where its file states one other than its language's (PO's Plural-Forms); NULL
  // follows the language. PO files read before are read again by the next sync (their revision forgotten).
  `
  ALTER TABLE translations ADD COLUMN plural_number INTEGER;
  ALTER TABLE translations ADD COLUMN plural_formula TEXT;
  UPDATE translations SET revision = '' WHERE filename <> '' AND component_id IN
    (SELECT id FROM components WHERE json_extract(settings, '$.file_format') IN ('po', 'po-mono'));
  `,
  // 12: screenshots (Weblate's): an image kept in the database (so that a backup, a database copy and every node of one
  // PostgreSQL database have it), the translation it belongs to (the source language's, as Weblate's default), and the
  // source strings it shows. The image is the row's last column: listing the others does not read it.
  `
  CREATE TABLE screenshots (
    id INTEGER PRIMARY KEY,
    translation_id INTEGER NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    media_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    size INTEGER NOT NULL,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    timestamp TEXT NOT NULL,
    image BLOB NOT NULL
  );
  CREATE INDEX screenshots_translation ON screenshots (translation_id);
  CREATE TABLE screenshot_units (
    screenshot_id INTEGER NOT NULL REFERENCES screenshots(id) ON DELETE CASCADE,
    unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,
    PRIMARY KEY (screenshot_id, unit_id)
  ) WITHOUT ROWID;
  CREATE INDEX screenshot_units_unit ON screenshot_units (unit_id);
  `,
  // 13: a unit whose text automatic translation stored (Weblate's "Automatically translated" label, a unit column in
  // its newer versions); any other change of its text clears it
  `
  ALTER TABLE units ADD COLUMN automatically_translated INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX units_automatic ON units (translation_id) WHERE automatically_translated = 1;
  `,
  // 14: project labels (Weblate's) and the source strings they are put on (a translation's string shows its source's);
  // the languages each user translates
  `
  CREATE TABLE labels (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT 'navy',
    UNIQUE (project_id, name)
  );
  CREATE TABLE unit_labels (
    unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,
    label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
    PRIMARY KEY (unit_id, label_id)
  ) WITHOUT ROWID;
  CREATE INDEX unit_labels_label ON unit_labels (label_id);

  -- the languages a user translates (Weblate's "Translated languages"): their dashboard, and first on project pages
  CREATE TABLE user_languages (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    language_id INTEGER NOT NULL REFERENCES languages(id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, language_id)
  ) WITHOUT ROWID;
  -- a user's own recent changes (the dashboard)
  CREATE INDEX changes_user ON changes (user_id, timestamp DESC, id DESC);
  `,
  // 15: the free-text search's index: the trigrams of every unit's source, target and context, lowercased as
  // JavaScript's toLowerCase does (searchText; what the search's tms_icontains compares: FTS5's own case folding differs
  // from it for a few letters, which would lose matches), with their positions: a phrase of a text's trigrams finds
  // exactly the units whose lowercased text contains it, as tms_icontains does, without reading the rows. Contentless
  // (the texts are the units' own), fed by triggers; a first load drops the triggers and fills it after its rows
  // (units.repo.ts).
  `
  CREATE VIRTUAL TABLE units_fts USING fts5(source, target, context, content='', contentless_delete=1,
    tokenize='trigram case_sensitive 1');
  CREATE TRIGGER units_fts_ai AFTER INSERT ON units BEGIN
    INSERT INTO units_fts (rowid, source, target, context) VALUES (new.id, ${searchText('new.source')}, ${searchText('new.target')}, ${searchText('new.context')});
  END;
  CREATE TRIGGER units_fts_ad AFTER DELETE ON units BEGIN
    DELETE FROM units_fts WHERE rowid = old.id;
  END;
  CREATE TRIGGER units_fts_au AFTER UPDATE OF source, target, context ON units
    WHEN old.source <> new.source OR old.target <> new.target OR old.context <> new.context BEGIN
    DELETE FROM units_fts WHERE rowid = old.id;
    INSERT INTO units_fts (rowid, source, target, context) VALUES (new.id, ${searchText('new.source')}, ${searchText('new.target')}, ${searchText('new.context')});
  END;
  INSERT INTO units_fts (rowid, source, target, context) SELECT id, ${searchText('source')}, ${searchText('target')}, ${searchText('context')} FROM units;
  `,
  // 16: what the catalog (catalog.repo.ts) refreshes by instead of reading everything again after each write:
  // catalog_version.structure, raised by any change of the rows it reads whole (languages, projects, components,
  // translations, add-ons; a column it does not read, such as a component's synced commit, raises nothing), and a
  // number for each change of a translation's statistics (catalog_version.stats, copied to the row's seq) so that a
  // refresh reads only the rows changed since its snapshot. Triggers raise them, so that every writer does (the
  // server, the sync worker, the command line, another process on the same file). A change of a user's full name
  // renumbers the statistics naming them as last author.
  `
  CREATE TABLE catalog_version (id INTEGER PRIMARY KEY CHECK (id = 1), structure INTEGER NOT NULL, stats INTEGER NOT NULL);
  INSERT INTO catalog_version VALUES (1, 0, 0);
  ALTER TABLE translation_stats ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX translation_stats_seq ON translation_stats (seq);

  CREATE TRIGGER translation_stats_catalog_insert AFTER INSERT ON translation_stats BEGIN
    UPDATE catalog_version SET stats = stats + 1;
    UPDATE translation_stats SET seq = (SELECT stats FROM catalog_version) WHERE translation_id = NEW.translation_id;
  END;
  CREATE TRIGGER translation_stats_catalog_update AFTER UPDATE ON translation_stats WHEN NEW.seq IS OLD.seq BEGIN
    UPDATE catalog_version SET stats = stats + 1;
    UPDATE translation_stats SET seq = (SELECT stats FROM catalog_version) WHERE translation_id = NEW.translation_id;
  END;
  CREATE TRIGGER translation_stats_catalog_delete AFTER DELETE ON translation_stats BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER users_catalog_name AFTER UPDATE OF full_name ON users WHEN OLD.full_name IS NOT NEW.full_name BEGIN
    UPDATE translation_stats SET seq = seq WHERE last_author_id = NEW.id;
  END;

  CREATE TRIGGER languages_catalog_insert AFTER INSERT ON languages BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER languages_catalog_delete AFTER DELETE ON languages BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER languages_catalog_update AFTER UPDATE ON languages BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER projects_catalog_insert AFTER INSERT ON projects BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER projects_catalog_delete AFTER DELETE ON projects BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER projects_catalog_update AFTER UPDATE OF slug, name, settings ON projects
    WHEN OLD.slug IS NOT NEW.slug OR OLD.name IS NOT NEW.name OR OLD.settings IS NOT NEW.settings
    BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER components_catalog_insert AFTER INSERT ON components BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER components_catalog_delete AFTER DELETE ON components BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER components_catalog_update AFTER UPDATE OF project_id, slug, name, settings, locked ON components
    WHEN OLD.project_id IS NOT NEW.project_id OR OLD.slug IS NOT NEW.slug OR OLD.name IS NOT NEW.name OR OLD.settings IS NOT NEW.settings
      OR OLD.locked IS NOT NEW.locked
    BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER translations_catalog_insert AFTER INSERT ON translations BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER translations_catalog_delete AFTER DELETE ON translations BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER translations_catalog_update AFTER UPDATE OF component_id, language_id, language_code, filename, revision, is_source,
    is_template, plural_number, plural_formula ON translations
    WHEN OLD.component_id IS NOT NEW.component_id OR OLD.language_id IS NOT NEW.language_id OR OLD.language_code IS NOT NEW.language_code
      OR OLD.filename IS NOT NEW.filename OR OLD.revision IS NOT NEW.revision OR OLD.is_source IS NOT NEW.is_source
      OR OLD.is_template IS NOT NEW.is_template OR OLD.plural_number IS NOT NEW.plural_number OR OLD.plural_formula IS NOT NEW.plural_formula
    BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER addons_catalog_insert AFTER INSERT ON addons BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER addons_catalog_delete AFTER DELETE ON addons BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  CREATE TRIGGER addons_catalog_update AFTER UPDATE OF component_id, project_id, name, configuration ON addons
    WHEN OLD.component_id IS NOT NEW.component_id OR OLD.project_id IS NOT NEW.project_id OR OLD.name IS NOT NEW.name
      OR OLD.configuration IS NOT NEW.configuration
    BEGIN UPDATE catalog_version SET structure = structure + 1; END;
  `,
  // 17: the search's index filled after a first load's commit instead of inside it (search-fill.repo.ts): the ranges of
  // unit ids whose texts units_fts does not hold yet, which a fill in short transactions works through; the triggers
  // leave a unit of those ranges to the fill (it reads the unit's texts as they are when it gets there), so that no
  // unit is indexed twice or missed whatever is written meanwhile. A search reads the index and, for those ranges, the
  // units themselves (the dialect's textContains, dialect.ts).
  `
  CREATE TABLE units_fts_pending (lo INTEGER PRIMARY KEY, hi INTEGER NOT NULL);
  DROP TRIGGER units_fts_ai;
  DROP TRIGGER units_fts_ad;
  DROP TRIGGER units_fts_au;
  CREATE TRIGGER units_fts_ai AFTER INSERT ON units
    WHEN NOT EXISTS (SELECT 1 FROM units_fts_pending WHERE new.id BETWEEN lo AND hi) BEGIN
    INSERT INTO units_fts (rowid, source, target, context) VALUES (new.id, ${searchText('new.source')}, ${searchText('new.target')}, ${searchText('new.context')});
  END;
  CREATE TRIGGER units_fts_ad AFTER DELETE ON units
    WHEN NOT EXISTS (SELECT 1 FROM units_fts_pending WHERE old.id BETWEEN lo AND hi) BEGIN
    DELETE FROM units_fts WHERE rowid = old.id;
  END;
  CREATE TRIGGER units_fts_au AFTER UPDATE OF source, target, context ON units
    WHEN (old.source <> new.source OR old.target <> new.target OR old.context <> new.context)
      AND NOT EXISTS (SELECT 1 FROM units_fts_pending WHERE new.id BETWEEN lo AND hi) BEGIN
    DELETE FROM units_fts WHERE rowid = old.id;
    INSERT INTO units_fts (rowid, source, target, context) VALUES (new.id, ${searchText('new.source')}, ${searchText('new.target')}, ${searchText('new.context')});
  END;
  `,
  // 18: the string index holds each copy's translation: a string's copies in one language (an edit's `inconsistent`
  // and propagation) are told from the other languages' in the index, whose entries are small and side by side, instead
  // of by reading every language's unit rows (each a page of its own once the units outgrow the cache: at 10 million
  // units, a string held by 3,215 units, 9 of them in the language wanted, cost 40–50 ms a read, three reads an edit)
  `
  DROP INDEX units_string;
  CREATE INDEX units_string ON units (source, context, translation_id);
  `,
  // 19: a translation's row changes without reading the catalog whole again (catalog.repo.ts): a number for each
  // translation added or changed in a column the catalog reads (catalog_version.translations, copied to the row's seq,
  // as the statistics' seq is), so that a refresh reads only the translations changed since its snapshot: a commit or a
  // sync moves revisions without raising structure. A translation removed still raises structure.
  `
  ALTER TABLE catalog_version ADD COLUMN translations INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE translations ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX translations_seq ON translations (seq);
  DROP TRIGGER translations_catalog_insert;
  DROP TRIGGER translations_catalog_update;
  CREATE TRIGGER translations_catalog_insert AFTER INSERT ON translations BEGIN
    UPDATE catalog_version SET translations = translations + 1;
    UPDATE translations SET seq = (SELECT translations FROM catalog_version) WHERE id = NEW.id;
  END;
  CREATE TRIGGER translations_catalog_update AFTER UPDATE OF component_id, language_id, language_code, filename, revision, is_source,
    is_template, plural_number, plural_formula ON translations
    WHEN OLD.component_id IS NOT NEW.component_id OR OLD.language_id IS NOT NEW.language_id OR OLD.language_code IS NOT NEW.language_code
      OR OLD.filename IS NOT NEW.filename OR OLD.revision IS NOT NEW.revision OR OLD.is_source IS NOT NEW.is_source
      OR OLD.is_template IS NOT NEW.is_template OR OLD.plural_number IS NOT NEW.plural_number OR OLD.plural_formula IS NOT NEW.plural_formula
    BEGIN
    UPDATE catalog_version SET translations = translations + 1;
    UPDATE translations SET seq = (SELECT translations FROM catalog_version) WHERE id = NEW.id;
  END;
  `,
];
