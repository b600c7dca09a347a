import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { TestApp } from '../../test/app';
import { columnMapping } from '../../test/imports';
import { saveDatasetMappings } from '../imports/mapping.queries';
import type { EvalSettings, World } from '../selections/evaluator.test-helpers';
import { drainSelDirty, markSelDirty } from '../selections/sel-record.sql';
import { ATTRIBUTE_VALUES, insertWorld } from '../selections/world.test-helpers';

// A random world of the engine's property test (world.test-helpers.ts) behind the HTTP app, for
// the builder's routes: the draft bodies of the world's selection, and a lock that makes a count wait.

/**
 * Puts `world` in the app's database as the builder's routes read it: without enrichment (the
 * engine reads enrichment only for attributes an enrichment file mapped), every dataset with a
 * mapping of its attributes, the narrow tables refreshed and every third address dirty again (so
 * a count reads those from records, the others from sel_record).
 */
export async function loadDraftWorld(t: TestApp, world: World): Promise<void> {
  for (const a of world.addresses) a.enrichment = {};
  await insertWorld(t.database.db, world);
  for (const d of world.datasets)
    await saveDatasetMappings(
      t.database.db,
      d.id,
      Object.keys(ATTRIBUTE_VALUES).map((name) => columnMapping(name, name)),
    );
  await drainSelDirty(t.database, await t.ctx.caseCollation());
  await markSelDirty(t.database.db, sql`SELECT id FROM addresses WHERE id % 3 = 0`);
}

/** The body of a draft of the world's selection with `tree` and the evaluator's settings `s`. */
export const draftBodyOf = (world: World, tree: unknown, s: EvalSettings) => ({
  query: tree,
  useBlacklist: s.useBlacklist,
  activeDatasetsOnly: s.activeDatasetsOnly,
  useCampaignLabel: s.useCampaignLabel,
  useDate: s.useDate,
  pressure: { age: s.pressureAge },
  useDatasetsFrom: s.useDatasetsFrom,
  selectionId: `s_${world.mailing.id}`,
});

/**
 * Runs `work` while `datasets` is locked against reads in another connection (a count then waits
 * on it, so the live count hands it on), held `holdMs` past the work; then unlocks it.
 */
export async function withDatasetsLocked<T>(url: string, work: () => Promise<T>, holdMs = 0): Promise<T> {
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE datasets IN ACCESS EXCLUSIVE MODE');
    const result = await work();
    if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
    return result;
  } finally {
    await locker.query('ROLLBACK').catch(() => {});
    await locker.end();
  }
}
