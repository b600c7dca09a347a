import type pg from 'pg';
import type { CsvFormat } from '../../../common/csv-download';
import type { ExportColumn } from '../../../common/export-columns';
import type { ColumnKeys } from '../../lib/crypto';
import { CIPHERTEXT_PREFIX } from '../../lib/crypto';
import { type CsvBody, csvDownload } from '../uploads/csv-download';
import { NUMBER_PATTERN } from '../uploads/csv-output';

// DESIGN §4 CSV exports: mailing, selection and test list downloads are RFC 4180 CSV written by
// PostgreSQL (COPY ... TO STDOUT) and passed on a chunk at a time, as the dataset CSV is: email plus
// the export columns, each formatted by its type (docs/decisions.md, Mailings):
//   string  the value as stored, empty when empty;
//   number  the value with the variant's decimal separator (a point in the comma file, a comma in
//           the Excel file: Dutch Excel reads 1.5 as a date), empty when it is not a number;
//   date    DD-MM-YYYY (from a stored YYYY-MM-DD[ HH:mm:ss] or DD-MM-YYYY), empty when not a date.
// Encrypted values are decrypted on the way out, a number column's given the variant's decimal
// separator by the writer (CsvOutput). The test list's values go through the same formatting.

/** The SQL of one export column's value (`v`, a text expression) in `format`, formatted by its type. */
export function exportValueSql(
  client: pg.ClientBase,
  v: string,
  column: ExportColumn,
  format: CsvFormat = 'csv',
): string {
  const cipher = `${v} LIKE ${client.escapeLiteral(`${CIPHERTEXT_PREFIX}%`)}`;
  if (column.type === 'number') {
    const n = `replace(btrim(${v}), ',', '.')`;
    const written = format === 'excel' ? `replace(${n}, '.', ',')` : n;
    return `CASE WHEN ${cipher} THEN ${v} WHEN ${n} ~ '${NUMBER_PATTERN}' THEN ${written} END`;
  }
  if (column.type === 'date') {
    return `CASE WHEN ${cipher} THEN ${v}
      WHEN ${v} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' THEN substr(${v}, 9, 2) || '-' || substr(${v}, 6, 2) || '-' || substr(${v}, 1, 4)
      WHEN ${v} ~ '^[0-9]{2}-[0-9]{2}-[0-9]{4}' THEN substr(${v}, 1, 10) END`;
  }
  return `nullif(${v}, '')`;
}

/**
 * Streams the CSV of `select(client)` (a SELECT whose columns follow `header`) written by
 * PostgreSQL in `format` (csvDownload: byte order mark, CRLF line ends, ciphertext decrypted,
 * formulas made text but for the plain numbers of the `numberColumns`); memory stays flat whatever
 * the size.
 */
export function copyCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  header: string[],
  select: (client: pg.PoolClient) => string,
  format: CsvFormat,
  settings: Record<string, string> = {},
  numberColumns: number[] = [],
): CsvBody {
  // The joins of a million addresses with their records hash in memory, not in batches on disk.
  return csvDownload(pool, keys, {
    header,
    select,
    format,
    numberColumns,
    settings: { work_mem: '256MB', ...settings },
  });
}

/** The header of every mailing download: email and the export columns. */
export function exportHeader(columns: ExportColumn[]): string[] {
  return ['email', ...columns.map((c) => c._id)];
}

/** The indexes of the number columns in a mailing download (exportHeader's order). */
export function exportNumberColumns(columns: ExportColumn[]): number[] {
  return columns.flatMap((c, i) => (c.type === 'number' ? [i + 1] : []));
}

/**
 * The addresses of a mailing (or of one of its selections) with the export columns from the
 * record of the dataset each was allocated from, in no particular order (a sort of millions of
 * rows would cost more than the whole export). One branch per dataset of the mailing, each naming
 * its dataset, so PostgreSQL reads only that dataset's table of records (records are partitioned
 * by dataset; a join on a dataset column would read every dataset's).
 */
export function mailingCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  columns: ExportColumn[],
  datasetIds: string[],
  mailingId: string,
  selectionId: string | undefined,
  format: CsvFormat,
): CsvBody {
  return copyCsv(
    pool,
    keys,
    exportHeader(columns),
    (client) => mailingSelect(client, columns, datasetIds, mailingId, selectionId, format),
    format,
    {},
    exportNumberColumns(columns),
  );
}

/** The SELECT of `mailingCsv` (email and the export columns formatted for `format`), for its COPY. */
export function mailingSelect(
  client: pg.ClientBase,
  columns: ExportColumn[],
  datasetIds: string[],
  mailingId: string,
  selectionId?: string,
  format: CsvFormat = 'csv',
): string {
  // Each attribute is read from the record once (v1, v2, ...) and formatted outside the branches:
  // a format names its value several times, and each naming would look it up in attrs again.
  // No fence (OFFSET 0) that would make it so: it would also keep the formatting out of parallel
  // workers, and on an idle machine they format half the rows (docs/decisions.md, Mailings).
  const raw = columns.map((c, i) => `, r.attrs ->> ${client.escapeLiteral(c._id)} AS v${i + 1}`).join('');
  const formatted = columns.map((c, i) => `, ${exportValueSql(client, `v${i + 1}`, c, format)}`).join('');
  const selection = selectionId ? `AND ma.selection_id = ${client.escapeLiteral(selectionId)}` : '';
  const branch = (datasetId: string) => {
    const ds = client.escapeLiteral(datasetId);
    return `SELECT a.email${raw}
      FROM mailing_addresses ma JOIN addresses a ON a.id = ma.address_id
      LEFT JOIN records r ON r.dataset_id = ${ds} AND r.address_id = ma.address_id
      WHERE ma.mailing_id = ${client.escapeLiteral(mailingId)} AND ma.dataset_id = ${ds} ${selection}
        AND a.erased_at IS NULL`;
  };
  // No dataset (an empty mailing): an empty result with the right columns.
  return datasetIds.length > 0
    ? `SELECT email${formatted} FROM (${datasetIds.map(branch).join('\nUNION ALL\n')}) x`
    : `SELECT ''::text${columns.map(() => ', NULL::text').join('')} WHERE false`;
}

// The test persons' fields that fill export columns of these names (case-insensitive).
const PERSON_FIELDS: Record<string, string> = {
  firstname: 'first_name',
  voornaam: 'first_name',
  preposition: 'preposition',
  tussenvoegsel: 'preposition',
  lastname: 'last_name',
  achternaam: 'last_name',
  gender: 'gender',
  geslacht: 'gender',
};

/**
 * The test list of a mailing (DESIGN §4): the global test person (when it has an e-mail) and the
 * test persons of the datasets the mailing's addresses come from, with the mailing CSV's header;
 * export columns named after a person field (voornaam, tussenvoegsel, achternaam, geslacht or
 * their English names) carry it, formatted as the mailing CSV formats that column (an empty field
 * empty), the others stay empty.
 */
export function testListCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  columns: ExportColumn[],
  mailingId: string,
  format: CsvFormat,
): CsvBody {
  return copyCsv(
    pool,
    keys,
    exportHeader(columns),
    (client) => {
      const values = columns.map((c) => {
        const field = PERSON_FIELDS[c._id.toLowerCase()];
        return field ? exportValueSql(client, `p.${field}`, c, format) : 'NULL::text';
      });
      const id = client.escapeLiteral(mailingId);
      return `SELECT email${values.map((v) => `, ${v}`).join('')} FROM (
        SELECT 0 AS g, 0 AS sort, '' AS dataset, email, first_name, preposition, last_name, gender
        FROM test_person WHERE email <> ''
        UNION ALL
        SELECT 1, d.sort, d.id, tp.email, tp.first_name, tp.preposition, tp.last_name, tp.gender
        FROM dataset_test_persons tp JOIN datasets d ON d.id = tp.dataset_id
        WHERE tp.dataset_id IN (SELECT DISTINCT dataset_id FROM mailing_addresses WHERE mailing_id = ${id})
        ) p ORDER BY g, sort, dataset, email`;
    },
    format,
    {},
    exportNumberColumns(columns),
  );
}
