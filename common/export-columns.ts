import { z } from 'zod';

/** The types an export column can have: date, number or string. */
export const EXPORT_COLUMN_TYPES = ['date', 'number', 'string'] as const;
/** One export column type: 'date', 'number' or 'string'. */
export type ExportColumnType = (typeof EXPORT_COLUMN_TYPES)[number];
/** The type a new export column gets when none is given. */
export const DEFAULT_EXPORT_COLUMN_TYPE: ExportColumnType = 'string';
/** What staff read for each type; the API keeps date, number and string. */
export const EXPORT_COLUMN_TYPE_LABELS: Record<ExportColumnType, string> = {
  date: 'Datum',
  number: 'Getal',
  string: 'Tekst',
};

/** The Dutch name of a stored type; an unknown one as it is. */
export function exportColumnTypeLabel(type: string): string {
  return Object.hasOwn(EXPORT_COLUMN_TYPE_LABELS, type)
    ? EXPORT_COLUMN_TYPE_LABELS[type as ExportColumnType]
    : type;
}

/** The alert titles and messages of the export column screen and routes. */
export const ExportColumnMessages = {
  errorTitle: 'Error',
  columnRequired: 'De kolomnaam is verplicht',
  columnTooLong: 'De kolomnaam mag maximaal 200 tekens bevatten',
  typeInvalid: 'Het type moet datum (date), getal (number) of tekst (string) zijn',
  columnTaken: (column: string) => `Kolom ${column} bestaat al`,
  notFound: (column: string) => `Kolom ${column} bestaat niet`,
  fetchFailed: 'Kon de exportkolommen niet ophalen',
  deleteFailed: 'Kon niet verwijderen',
  created: 'Kolom toegevoegd',
  deleted: 'Kolom verwijderd',
  confirmTitle: 'Verwijder',
  confirm: (column: string) => `Weet je zeker dat je ${column} wilt verwijderen?`,
} as const;

/** The type of an export column: how its values are formatted in mailing exports. */
export const ExportColumnTypeSchema = z.enum(EXPORT_COLUMN_TYPES, {
  error: ExportColumnMessages.typeInvalid,
});

/** A CSV export column as the API presents it: the attribute name as `_id` and its type (spec 001 §3). */
export const ExportColumnSchema = z.object({ _id: z.string(), type: ExportColumnTypeSchema });
/** An export column, as ExportColumnSchema parses it. */
export type ExportColumn = z.infer<typeof ExportColumnSchema>;

const column = z
  .string({ error: ExportColumnMessages.columnRequired })
  .trim()
  .min(1, ExportColumnMessages.columnRequired)
  .max(200, ExportColumnMessages.columnTooLong);

/** POST /api/export/columns body: the column name (trimmed, required) and its type (default string). */
export const ExportColumnCreateSchema = z.object({
  column,
  type: ExportColumnTypeSchema.default(DEFAULT_EXPORT_COLUMN_TYPE),
});
/** The body of POST /api/export/columns before parsing (what ExportColumnCreateSchema accepts). */
export type ExportColumnCreate = z.input<typeof ExportColumnCreateSchema>;

/** DELETE /api/export/columns query: the column to remove. */
export const ExportColumnDeleteQuerySchema = z.object({ column });
