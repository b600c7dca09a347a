import { sql } from 'drizzle-orm';
import { attributeLabel } from '../../../common/global-attributes';
import { PREVIEW_SIZE, type Preview } from '../../../common/live-count';
import type { MappingEntry } from '../../../common/mappings';
import type { DbOrTx } from '../../db/client';
import { CIPHERTEXT_PREFIX } from '../../lib/crypto';
import { bigintArray, pgTextArray } from '../../lib/pg-array';
import { candidatesSql } from '../selections/selection-candidates';
import { prepareCount, type RunStatement } from '../selections/selection-count';
import { DEFAULT_SOURCE } from '../selections/selection-plan';
import type { PreparedDraft } from './draft';

// The builder's preview (docs/decisions.md, The builder): the first PREVIEW_SIZE addresses the
// draft's count finds, from the count's own candidates (selection-candidates.ts: the same
// exclusions, blacklists, pressure and dataset priority), each with the record of the dataset it
// would be allocated from. Encrypted values are never decrypted.

/**
 * The first PREVIEW_SIZE candidates of a run, (address_id, rank). No ORDER BY: the LIMIT stops the
 * scan once it has them, where ordering would read every candidate (docs/performance.md#counts).
 */
const previewSql: RunStatement = (tree, s, allowed, plan) =>
  sql`${candidatesSql(tree, s, allowed, plan)}
      SELECT h.address_id, h.rank FROM hit h LIMIT ${sql.raw(String(PREVIEW_SIZE))}`;

/** A previewed address's row: its e-mail address, the dataset of its best rank and that record's attributes. */
interface PreviewRow {
  email: string;
  dataset_id: string;
  dataset_name: string;
  attrs: Record<string, unknown> | null;
}

/**
 * The preview of a prepared draft in the caller's transaction (REPEATABLE READ, read-only, so the
 * dirty addresses its plan reads are those of the snapshot its candidates read): at most
 * PREVIEW_SIZE addresses ordered by e-mail address, each with its dataset and that record's mapped
 * attributes (labelled; an encrypted one as value null, encrypted true).
 */
export async function previewDraft(tx: DbOrTx, prepared: PreparedDraft): Promise<Preview> {
  const { allowed, statement } = await prepareCount(
    tx,
    prepared.where,
    prepared.settings,
    DEFAULT_SOURCE,
    previewSql,
  );
  const hits = (await tx.execute(statement)).rows as { address_id: string | number; rank: string | number }[];
  if (hits.length === 0) return { rows: [] };
  const addressIds = hits.map((h) => Number(h.address_id));
  // rankedDatasets numbers the allowed datasets from 1 in their priority order.
  const datasetIds = hits.map((h) => allowed.ids[Number(h.rank) - 1]);
  // The e-mail address is stored plain (addresses.email, matched and unique); only attributes are encrypted.
  // Each record by a scalar subquery (an index probe of its partition per address): as a join over
  // the 500 partitions of records the planner hashed every record of a small partition (1M: 0.3-0.55 s).
  const { rows } = await tx.execute(sql`SELECT a.email, x.dataset_id, d.name AS dataset_name,
      (SELECT r.attrs FROM records r WHERE r.dataset_id = x.dataset_id AND r.address_id = x.address_id) AS attrs
    FROM unnest(${bigintArray(addressIds)}, ${pgTextArray(datasetIds)}::text[]) AS x(address_id, dataset_id)
    JOIN addresses a ON a.id = x.address_id
    JOIN datasets d ON d.id = x.dataset_id
    ORDER BY a.email`);
  const mappings = await mappingsOf(tx, [...new Set(datasetIds)]);
  return {
    rows: (rows as unknown as PreviewRow[]).map((row) => ({
      email: row.email,
      dataset: { id: row.dataset_id, name: row.dataset_name },
      values: valuesOf(mappings.get(row.dataset_id) ?? [], row.attrs ?? {}),
    })),
  };
}

/** The mapping entries of each dataset (none for a dataset without a mapping). */
async function mappingsOf(tx: DbOrTx, datasetIds: string[]): Promise<Map<string, MappingEntry[]>> {
  const { rows } = await tx.execute(sql`SELECT dataset_id, mappings FROM dataset_mappings
    WHERE dataset_id = ANY(${pgTextArray(datasetIds)}::text[])`);
  return new Map(
    (rows as { dataset_id: string; mappings: MappingEntry[] | null }[]).map((r) => [
      r.dataset_id,
      r.mappings ?? [],
    ]),
  );
}

/**
 * A record's mapped attributes in the mapping's order: the value stored (null when none), and for
 * an attribute the mapping encrypts null with encrypted true. A stored value that is ciphertext
 * under a mapping no longer encrypted (not remapped yet) is shown as encrypted too: it is never
 * decrypted here, nor shown as ciphertext.
 */
function valuesOf(
  mappings: MappingEntry[],
  attrs: Record<string, unknown>,
): Preview['rows'][number]['values'] {
  return mappings.map((entry) => {
    const stored = attrs[entry.mapped];
    const value = stored === undefined || stored === null ? null : String(stored);
    const encrypted = entry.encrypted || (value?.startsWith(CIPHERTEXT_PREFIX) ?? false);
    return {
      name: entry.mapped,
      label: attributeLabel(entry.mapped),
      value: encrypted ? null : value,
      encrypted,
    };
  });
}
