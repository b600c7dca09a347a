import { z } from 'zod';

// Every CSV download (dataset, mailing, selection, test list, skipped rows) comes in two files
// (docs/decisions.md, CSV downloads): the RFC 4180 comma file and a
// semicolon file for Excel with a Dutch locale (whose list separator is ';'). Both start with a
// UTF-8 byte order mark, so that Excel reads 'José' as UTF-8 instead of Windows-1252.

/** The two variants of a CSV download: `csv` (RFC 4180, comma) and `excel` (semicolon). */
export const CsvFormatSchema = z.enum(['csv', 'excel']);
/** One variant of a CSV download: `csv` (comma) or `excel` (semicolon). */
export type CsvFormat = z.infer<typeof CsvFormatSchema>;

/** The query string of every CSV download: `?format=excel` for the semicolon file, else the comma file. */
export const CsvDownloadQuerySchema = z.object({ format: CsvFormatSchema.default('csv') });

/** The field separator of each variant. */
export const CSV_DELIMITERS: Record<CsvFormat, ',' | ';'> = { csv: ',', excel: ';' };

/** The variants as the download menus name them, in menu order. */
export const CSV_FORMAT_LABELS: [CsvFormat, string][] = [
  ['csv', 'CSV (komma)'],
  ['excel', 'Excel (puntkomma)'],
];

/** The URL of a download in one variant: the comma file at `url` itself, the Excel file with ?format=excel. */
export function csvDownloadUrl(url: string, format: CsvFormat): string {
  if (format === 'csv') return url;
  return `${url}${url.includes('?') ? '&' : '?'}format=${format}`;
}
