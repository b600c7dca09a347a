import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, type Category } from '../../../common/extra-inzet';
import { QueryTreeSchema } from '../../../common/query-tree';
import { HttpError } from '../../lib/http-errors';
import { pgTextArray } from '../../lib/pg-array';
import { createTestApp, type TestApp } from '../../test/app';
import { eraseEmails } from '../avg/erase.service';
import { compileQuery } from './compile';
import type { CompileContext } from './compile-context';
import { countsOf, type EvalSettings, evaluate, useFiles, type World } from './evaluator.test-helpers';
import {
  drainSelDirty,
  loadSlots,
  markSelDirty,
  markSelDirtyRecords,
  rebuildSelRecords,
  type SlotMap,
  selRecordDriftSql,
} from './sel-record.sql';
import { ALLOCATION_SLACK, type AllocateOptions, allocateCandidates } from './selection-allocate';
import { CellSizes, countCandidates, type DatasetCounts } from './selection-count';
import { fileRowsSql, loadSelectionFiles, normalizeFileValue } from './selection-file.queries';
import { countFunnel } from './selection-funnel';
import type { RunSettings } from './selection-plan';

import {
  ATTRIBUTE_VALUES,
  ENRICHMENT_ONLY_VALUES,
  insertWorld,
  makeWorld,
  settingsArb,
  treeArb,
} from './world.test-helpers';

// The engine's counts, funnels and allocations equal an evaluator written apart from it (DESIGN
// §4/§6), on random worlds, random trees of every leaf nested three deep and random settings: 5
// worlds × 100 trees a run (file lines included), an allocation checked on every fourth. Every
// funnel figure equals the evaluator's count of the tree of the lines up to it.

const NOW = new Date('2026-11-25T10:00:00Z');
const WORLDS = [11, 24, 37, 42, 59];
const TREES_PER_WORLD = 100;

let t: TestApp;
let collation: string;
beforeAll(async () => {
  // No background refresher: the test decides which addresses are dirty when.
  t = await createTestApp({ startWorker: false, config: { selRefresher: false } });
  collation = await t.ctx.caseCollation();
});
afterAll(() => t?.close());

/** The cell sizes the counts leave for the allocations (as the app's AppContext.selectionRuns holds them). */
const sizes = new CellSizes();

const keys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };

function runSettings(w: World, s: EvalSettings): RunSettings {
  return { ...s, mailingId: w.mailing.id, campaignType: w.campaign.type };
}

let files: Awaited<ReturnType<typeof loadSelectionFiles>> = new Map();
let selectionId = '';
let slots: SlotMap = new Map();
/** The tree compiled for records and (`.narrow`) for sel_record rows. */
function compile(tree: unknown) {
  const parsed = QueryTreeSchema.parse(tree);
  const ctx = {
    keys: () => keys,
    encrypted: new Set<string>(),
    // Every attribute can come from enrichment in the worlds (as listEnrichedAttributes would say).
    enriched: new Set([...Object.keys(ATTRIBUTE_VALUES), ...Object.keys(ENRICHMENT_ONLY_VALUES)]),
    collation,
    now: NOW,
    fileRows: (lineId: string, fields: string[], c: CompileContext) =>
      fileRowsSql(files, selectionId, lineId, fields, c),
  };
  return { parsed, sql: compileQuery(parsed, ctx, slots) };
}

const key = (d: string, c: string) => `${d} ${c}`;

/** The engine's counts as the evaluator's countsOf writes them ("datasetId category" → n, no zeros). */
function cellsOf(counts: DatasetCounts[]): Record<string, number> {
  const cells = new Map<string, number>();
  for (const row of counts) {
    for (const c of CATEGORIES) if (row[c] > 0) cells.set(key(row.datasetId, c), row[c]);
  }
  return Object.fromEntries(cells);
}

/**
 * Makes the sel_record rows of about a seventh of the addresses wrong (exclusions cleared, the
 * category flipped, a slot
 * overwritten, rows moved between the single and multi partitions, rows deleted) and puts those
 * addresses in sel_dirty, as a write the refresher has not reached yet leaves them: counts and
 * allocations from sel_record must still equal the evaluator's, reading those from records.
 */
async function staleRows(seed: number): Promise<void> {
  const k = seed % 7;
  await t.database.db.execute(
    sql.raw(`INSERT INTO sel_dirty (address_id, dataset_id) SELECT address_id, dataset_id FROM records WHERE address_id % 7 = ${k};
    UPDATE sel_record SET blacklisted = FALSE, hard_bounced = FALSE, partner_blocked = FALSE, clicked = NOT clicked,
      t1 = 'zz', d2 = NULL, multi = NOT multi
      WHERE address_id % 7 = ${k} AND ds % 3 <> 0;
    DELETE FROM sel_record WHERE address_id % 7 = ${k} AND ds % 3 = 0;
    UPDATE sel_multi SET blacklisted = FALSE, hard_bounced = FALSE, p1_partner_blocked = FALSE,
      p2_partner_blocked = FALSE, clicked = NOT clicked, p1_t1 = 'zz', p2_d2 = NULL, p3_ds = NULL
      WHERE address_id % 7 = ${k} AND p1_ds % 3 <> 0;
    DELETE FROM sel_multi WHERE address_id % 7 = ${k} AND p1_ds % 3 = 0;`),
  );
}

/**
 * Erases about a ninth of the world's addresses (AVG art. 17) with the erasure's own service, and
 * changes the world as the erasure promises: their records gone, their e-mail a pseudonym, their
 * behaviour cleared, their place in mailings not yet offered gone, the line-file rows holding their
 * e-mail gone. The evaluator reads only the world, so it sees them with no records at all.
 */
async function eraseSome(world: World, seed: number): Promise<void> {
  const erased = world.addresses.filter((a) => (a.id * 31 + seed) % 9 === 0);
  const emails = new Set(erased.map((a) => a.email));
  const ids = new Set(erased.map((a) => a.id));
  const done = await t.database.db.transaction((tx) => eraseEmails(tx, t.ctx.columnKeys(), [...emails]));
  // The erasures reach records (and so the counts), not only addresses without any.
  expect(done.records).toBeGreaterThan(0);
  world.records = world.records.filter((r) => !ids.has(r.addressId));
  for (const a of erased) {
    Object.assign(a, {
      email: `avg-verwijderd-${a.id}`,
      domain: '',
      os: [],
      openInterests: [],
      clickInterests: [],
      lastOpenAt: null,
      lastClickAt: null,
      hardBouncedAt: null,
      enrichment: {},
    });
  }
  for (const m of [world.mailing, ...world.otherMailings])
    if (m.state === 'draft' || m.state === 'final')
      m.addresses = m.addresses.filter((x) => !ids.has(x.addressId));
  for (const f of world.files)
    f.rows = f.rows.filter(
      (row) =>
        !row.some((v, i) => {
          const stored = normalizeFileValue({ field: f.columns[i].name, ...f.columns[i] }, v);
          return stored !== null && emails.has(stored);
        }),
    );
}

class Rollback extends Error {}

describe('selection engine against an independent evaluator', () => {
  for (const seed of WORLDS) {
    it(`world ${seed}: counts, funnels and allocations equal the evaluator's`, {
      timeout: 300_000,
    }, async () => {
      const world = makeWorld(seed);
      // Each world alone in the database (the dataset delete empties its records' partition).
      await t.database.db.execute(
        sql.raw(`DELETE FROM mailings; DELETE FROM campaigns; DELETE FROM datasets;
        DELETE FROM partners; DELETE FROM addresses; DELETE FROM blacklist_emails; DELETE FROM blacklist_domains;
        DELETE FROM partner_blacklist`),
      );
      await insertWorld(t.database.db, world);
      // The narrow table, built from its definition, must then hold exactly that (the checker).
      // The narrow table built from its definition (rebuild) in some worlds; in the others by the
      // refresher from every record marked dirty, a few marks a batch (an address's marks spread
      // over several batches). It must then hold exactly its definition (the checker).
      if (seed % 2 === 1) {
        await rebuildSelRecords(t.database, collation);
      } else {
        await t.database.db.execute(sql`TRUNCATE sel_dirty, sel_record, sel_multi`);
        await markSelDirtyRecords(t.database.db, sql`SELECT address_id, dataset_id FROM records`);
        await drainSelDirty(t.database, collation, 7);
        // A write of an address's facts marks the address alone: its records are found by the
        // datasets of its rows.
        await markSelDirty(t.database.db, sql`SELECT id FROM addresses`);
        await t.database.db.execute(
          sql`UPDATE sel_record SET clicked = NOT clicked; UPDATE sel_multi SET clicked = NOT clicked`,
        );
        await drainSelDirty(t.database, collation, 5);
      }
      expect((await t.database.db.execute(await selRecordDriftSql(t.database.db, collation))).rows).toEqual(
        [],
      );
      // Erasures: the narrow tables stay exact (no drift outside sel_dirty), and in the worlds of
      // one parity the marks they leave are drained, in the others counted around until staleRows.
      await t.database.db.execute(sql`DELETE FROM avg_suppressions`);
      await eraseSome(world, seed);
      expect((await t.database.db.execute(await selRecordDriftSql(t.database.db, collation))).rows).toEqual(
        [],
      );
      if (seed % 3 !== 0) await drainSelDirty(t.database, collation);
      expect((await t.database.db.execute(await selRecordDriftSql(t.database.db, collation))).rows).toEqual(
        [],
      );
      slots = await loadSlots(t.database.db);
      selectionId = `s_${world.mailing.id}`;
      files = await loadSelectionFiles(t.database.db, selectionId);
      useFiles(world);
      let nonEmpty = 0;
      let allocations = 0;
      let run = 0;
      await fc.assert(
        fc.asyncProperty(treeArb(world), settingsArb(world), fc.nat(), async (tree, settings, pickSeed) => {
          run++;
          if (run === TREES_PER_WORLD / 2 + 1) await staleRows(seed);
          const { parsed, sql: where } = compile(tree);
          // Every generated tree can be read from sel_record (its attributes have slots, none is
          // encrypted), so both sources below are really exercised.
          expect(where.narrow, JSON.stringify(tree)).toBeTruthy();
          const expected = evaluate(world, parsed, settings, NOW);
          const expectedCounts = countsOf(expected);
          // Both sources (records with addresses; sel_record with the dirty addresses from
          // records) give the evaluator's counts.
          for (const source of ['records', 'sel_record'] as const) {
            const got = await countCandidates(t.database.db, where, runSettings(world, settings), {
              source,
              sizes,
            });
            expect(cellsOf(got), JSON.stringify({ source, tree, settings })).toEqual(
              Object.fromEntries(expectedCounts),
            );
          }
          // The funnel: the same cells, and per top-level line the evaluator's count of the lines
          // up to it, on both sources.
          const lines = 'and' in parsed ? parsed.and : [parsed];
          const remaining = lines.map(
            (_, k) => evaluate(world, { and: lines.slice(0, k + 1) }, settings, NOW).size,
          );
          for (const source of ['records', 'sel_record'] as const) {
            const funnel = await countFunnel(t.database.db, where, runSettings(world, settings), { source });
            const context = JSON.stringify({ source, tree, settings });
            expect(cellsOf(funnel.counts), context).toEqual(Object.fromEntries(expectedCounts));
            expect(funnel.remaining, context).toEqual(remaining);
          }
          if (expected.size > 0) nonEmpty++;
          if (run % 2 !== 0 || expected.size === 0) return;

          // Allocate a random part of each cell; the rows must be candidates of that cell, exactly as
          // many; every other allocation from sel_record.
          allocations++;
          const source = allocations % 2 === 0 ? 'sel_record' : 'records';
          // The cells' hash bounds: the app's slack, none (some cells short of their bound, run
          // again without it) or less than asked (every bounded cell run again).
          const slack = [ALLOCATION_SLACK, () => 0, (n: number) => -n / 2][allocations % 3];
          // The cells' bounds tested in the scan of sel_record as well, or only after it.
          const options: AllocateOptions = { source, sizes, slack, sample: allocations % 4 !== 3 };
          // The cells' sizes (which set the bounds): the counts' just above, none (the allocation
          // counts), or stale ones (each scaled by 0 to 4.75, some cells left out).
          const sizesMode = Math.floor(allocations / 3) % 3;
          if (sizesMode === 1) sizes.entries.clear();
          if (sizesMode === 2) {
            for (const entry of sizes.entries.values()) {
              let i = 0;
              for (const [cell, n] of [...entry.sizes]) {
                const f = (pickSeed + i++) % 20;
                if (f === 0) entry.sizes.delete(cell);
                else entry.sizes.set(cell, Math.round((n * f) / 4));
              }
            }
          }
          const allocWhere = where;
          const quotas = [...expectedCounts].map(([k, n], i) => {
            const [datasetId, category] = k.split(' ');
            return { datasetId, category: category as Category, n: (pickSeed + i * 7) % (n + 1) };
          });
          await t.database.db
            .transaction(async (tx) => {
              const n = await allocateCandidates(
                tx,
                allocWhere,
                runSettings(world, settings),
                `s_${world.mailing.id}`,
                42,
                quotas,
                options,
              );
              expect(n).toBe(quotas.reduce((sum, q) => sum + q.n, 0));
              const { rows } =
                await tx.execute(sql`SELECT address_id, dataset_id, category FROM mailing_addresses
                WHERE mailing_id = ${world.mailing.id} AND selection_id = ${`s_${world.mailing.id}`}
                  AND NOT (address_id = ANY(${pgTextArray(world.mailing.addresses.map((x) => x.addressId).map(String))}::bigint[]))`);
              const perCell = new Map<string, number>();
              for (const r of rows as { address_id: string; dataset_id: string; category: string }[]) {
                const c = expected.get(Number(r.address_id));
                expect(c, `allocated address ${r.address_id} is no candidate`).toBeDefined();
                expect([c?.datasetId, c?.category]).toEqual([r.dataset_id, r.category]);
                perCell.set(
                  key(r.dataset_id, r.category),
                  (perCell.get(key(r.dataset_id, r.category)) ?? 0) + 1,
                );
              }
              for (const q of quotas) expect(perCell.get(key(q.datasetId, q.category)) ?? 0).toBe(q.n);
              // And they are the cell's n candidates with the smallest seeded hash (ties by id): the
              // evaluator's candidates ranked by PostgreSQL's hashint8extended.
              const ids = [...expected.keys()];
              const { rows: hashed } = await tx.execute(
                sql`SELECT id, hashint8extended(id, 42)::text AS h FROM unnest(${`{${ids.join(',')}}`}::bigint[]) id`,
              );
              const hashOf = new Map(
                (hashed as { id: number; h: string }[]).map((r) => [Number(r.id), BigInt(r.h)]),
              );
              const chosen = new Set((rows as { address_id: string }[]).map((r) => Number(r.address_id)));
              for (const q of quotas) {
                const inCell = ids
                  .filter((id) => {
                    const c = expected.get(id);
                    return c?.datasetId === q.datasetId && c?.category === q.category;
                  })
                  .sort((x, y) => {
                    const d = (hashOf.get(x) as bigint) - (hashOf.get(y) as bigint);
                    return d < 0n ? -1 : d > 0n ? 1 : x - y;
                  });
                for (const id of inCell.slice(0, q.n))
                  expect(chosen.has(id), `address ${id} of ${q.datasetId}`).toBe(true);
              }
              throw new Rollback();
            })
            .catch((err) => {
              if (!(err instanceof Rollback)) throw err;
            });
          // One more than a cell holds is refused, and nothing is allocated.
          const [firstKey, available] = [...expectedCounts][0];
          const [datasetId, category] = firstKey.split(' ');
          const err = await t.database.db
            .transaction((tx) =>
              allocateCandidates(
                tx,
                allocWhere,
                runSettings(world, settings),
                `s_${world.mailing.id}`,
                42,
                [{ datasetId, category: category as Category, n: available + 1 }],
                options,
              ),
            )
            .catch((e) => e);
          expect(err).toBeInstanceOf(HttpError);
          expect((err as HttpError).statusCode).toBe(400);
        }),
        { numRuns: TREES_PER_WORLD, seed },
      );
      // The generators must reach real results, not only empty sets.
      expect(nonEmpty).toBeGreaterThan(TREES_PER_WORLD / 4);
      expect(allocations).toBeGreaterThan(5);
    });
  }
});
