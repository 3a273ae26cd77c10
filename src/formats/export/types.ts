// What Weblate's exporters read: a translation's units (and their locations one by one) and the facts about the translation that the files record.
import type { UnitState } from '../../domain/unit.js';

/** One unit as the exporters read it (the store's unit, plural forms split). */
export interface ExportUnit {
  context: string;
  source: string[];
  target: string[];
  note: string;
  /** Comma+space separated locations. */
  location: string;
  flags: string;
  state: UnitState;
  /** Weblate's checksum: the id of a unit without context. */
  checksum: string;
}

/** The translation being exported. */
export interface ExportContext {
  sourceLanguage: string;
  language: string;
  /** The component has a template (Weblate's monolingual exporters need one). */
  monolingual: boolean;
  /** The component's file format (Weblate's MO exporter takes gettext PO only). */
  fileFormat: string;
  /** The translation's plural (Weblate's `Translation.plural`): plural units get its number of forms, PO its Plural-Forms. */
  plural: { number: number; formula: string };
  /** The language's and the project's names, the translation's web address: the PO header's fields. */
  languageName: string;
  projectName: string;
  url: string;
  /** When the export is made (the PO header's POT-Creation-Date). */
  date: Date;
}

export interface Exporter {
  /** Weblate's exporter id: the `?format=` value. */
  id: string;
  extension: string;
  mimeType: string;
  /** Whether this translation can be exported so (Weblate's `supports`). */
  supports(ctx: ExportContext): boolean;
  write(units: readonly ExportUnit[], ctx: ExportContext): Uint8Array;
}

/** A unit's locations one by one (stored comma+space separated; Weblate's exporters split them on whitespace). */
export function unitLocations(location: string): string[] {
  return location.split(/,\s*|\s+/).filter((l) => l !== '');
}
