import { z } from 'zod';

// Messages and small rules of the upload, delete-from-file and value-mapped screens
// (spec 000 §4, §5, §8; spec 001 §2, §8). The server's upload errors live here too, so the
// browser can say the same thing before a file is sent.

/** The server's refusals of an uploaded file (400). */
export const ImportMessages = {
  noEmailColumn: (name: string) => `Het bestand bevat geen kolom genaamd ${name}`,
  datasetGone: 'Het bestand (dataset) bestaat niet meer',
  noFile: 'Er is geen bestand meegestuurd',
  onlyCsv: 'Alleen .csv-bestanden kunnen worden geüpload',
} as const;

/** The alert titles and messages of the dataset upload screen. */
export const UploadMessages = {
  uploadingTitle: 'Aan het uploaden',
  uploadingBody: 'Het bestand wordt geüpload.',
  // Dutch instead of spec 000 §8's 'Upload complete', as the other uploads say it.
  completeTitle: 'Upload geslaagd',
  uploaded: 'Het bestand is geüpload.',
  failedTitle: (file: string) => `Error while uploading ${file}`,
  refusedTitle: 'Ongeldig bestand',
  oneFile: 'Er kan maar één bestand tegelijk worden geüpload',
  partnersFailed: 'Unable to fetch partners',
  datasetsFailed: 'Unable to fetch datasets',
  chooseFirst: 'Kies eerst een partner en een bestand',
} as const;

/** The Dutch texts of 'Verwijder uit bestand', which deletes the addresses of a CSV file from a dataset. */
export const DeleteAllMessages = {
  title: 'Verwijder uit bestand',
  // The title says what went (addresses, with the server's count), not 'Bestand verwijderd'.
  doneTitle: (deleted: number) =>
    `${deleted.toLocaleString('nl-NL')} ${deleted === 1 ? 'adres' : 'adressen'} verwijderd`,
  done: (deleted: number, read: number) =>
    `${deleted.toLocaleString('nl-NL')} van de ${read.toLocaleString('nl-NL')} e-mailadressen uit het CSV-bestand ` +
    `${deleted === 1 ? 'is' : 'zijn'} uit het bestand verwijderd`,
  failedTitle: 'Kon bestand niet verwijderen',
  confirmTitle: 'Adressen verwijderen?',
  confirm: (dataset: string) =>
    `Weet je zeker dat je de adressen uit dit bestand uit ${dataset} wilt verwijderen?`,
  emailColumnRequired: 'Vul de naam van de e-mailkolom in',
} as const;

/** The Dutch messages of the mapping screen. */
export const MappingScreenMessages = {
  loadFailed: 'Kon de mapping niet ophalen',
  remapFailed: 'Mapping doorvoeren mislukt',
  noFileYet: 'Er is nog geen CSV-bestand geüpload; upload er eerst een om de kolommen te zien.',
  unsaved: 'Er zijn wijzigingen die nog niet zijn opgeslagen.',
  remapUnsavedTitle: 'Niet-opgeslagen wijzigingen',
  remapUnsaved:
    'Mapping doorvoeren gebruikt de opgeslagen mapping; je wijzigingen zijn nog niet opgeslagen. Toch doorvoeren?',
  uniqueValuesFailed: 'Kon de waarden van deze kolom niet ophalen',
} as const;

/** The Dutch messages of the value-mapped screen, which lists the value mappings per attribute. */
export const ValueMappedMessages = {
  fetchFailed: 'Waardemappings konden niet worden opgehaald',
  empty: 'Er zijn nog geen waardemappings.',
  emptyField: 'Geen waardemappings voor dit kenmerk.',
} as const;

/** The counters of spec 000 §3 Upload result; each may be absent (a delete-from-file has read and deleted). */
export const UploadResultSchema = z.object({
  read: z.number().optional(),
  saved: z.number().optional(),
  skipped: z.number().optional(),
  deleted: z.number().optional(),
  unchanged: z.number().optional(),
});
/** The counters of an upload or delete-from-file, as UploadResultSchema parses them. */
export type UploadResult = z.infer<typeof UploadResultSchema>;

/** Reads a task's result as upload counters; an empty object when it holds none. */
export function uploadResultOf(result: unknown): UploadResult {
  const parsed = UploadResultSchema.safeParse(result ?? {});
  return parsed.success ? parsed.data : {};
}

/**
 * The counters in the spec's order with their Dutch names: the names of the task card (spec 001 §2
 * tasks), used by every upload's alert too.
 */
export const UPLOAD_COUNTERS = [
  ['read', 'Gevonden'],
  ['saved', 'Opgeslagen'],
  ['skipped', 'Overgeslagen'],
  ['deleted', 'Verwijderd'],
  ['unchanged', 'Onveranderd'],
] as const;

/** The body of an upload's success alert: 'Gevonden: 5, Opgeslagen: 2, Overgeslagen: 3, Verwijderd: 0, Onveranderd: 0 (1234 ms)'. */
export function uploadSummary(result: UploadResult, elapsedMs?: number): string {
  const counts = UPLOAD_COUNTERS.map(([key, label]) => `${label}: ${result[key] ?? 0}`).join(', ');
  return elapsedMs === undefined ? counts : `${counts} (${Math.max(0, Math.round(elapsedMs))} ms)`;
}

/** Whether a file name is a .csv file (case-insensitive), the only kind an upload takes. */
export function isCsvName(name: string): boolean {
  return name.toLowerCase().endsWith('.csv');
}

/** The e-mail column a dataset's file must contain: its configured emailColumnName, else 'email'. */
export function emailColumnOf(dataset: { emailColumnName?: string | null } | null | undefined): string {
  return dataset?.emailColumnName?.trim() || 'email';
}

/** Whether a file's header row has the e-mail column (case-insensitive, surrounding space ignored, as the server checks). */
export function hasEmailColumn(headers: string[], column: string): boolean {
  const wanted = column.trim().toLowerCase();
  return headers.some((h) => h.trim().toLowerCase() === wanted);
}
