import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../common/extra-inzet';
import { LiveCountAnswerSchema } from '../../../common/live-count';
import { type QueryNode, QueryTreeSchema, renderQuery } from '../../../common/query-tree';
import { type LiveCount, LiveCountSchema } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { waitForTask } from '../../test/imports';
import {
  countsOf,
  type EvalSettings,
  evaluate,
  useFiles,
  type World,
} from '../selections/evaluator.test-helpers';
import { makeWorld, settingsArb, treeArb } from '../selections/world.test-helpers';
import { saveSettings } from '../settings/settings.queries';
import { draftBodyOf, loadDraftWorld, withDatasetsLocked } from './draft-world.test-helpers';

// POST .../selections/live-count through HTTP against the independent evaluator, on random worlds,
// random trees and random settings: every dataset's figures per category, the funnel's total and,
// per top-level line of a root 'and', the evaluator's count of the lines up to it. A few drafts
// are counted while datasets is locked, so the count is handed on to a task, whose result must
// equal the evaluator as well. The server compiles with the real clock, so the evaluator is given
// the real clock too (as the preview's test does).

// No background refresher: the test decides when the narrow tables are refreshed.
const t = setupTestApp({ config: { selRefresher: false } });

const WORLDS = [24, 37, 42];
const TREES_PER_WORLD = 40;
/** Every this many drafts one goes through the task route (datasets locked). */
const TASK_EVERY = 13;

/** Puts `world` alone in the database, as the builder's routes read it (loadDraftWorld). */
async function loadWorld(world: World): Promise<void> {
  await t.db.execute(
    sql.raw(`DELETE FROM mailings; DELETE FROM campaigns;
      DELETE FROM datasets; DELETE FROM partners; DELETE FROM addresses; DELETE FROM blacklist_emails;
      DELETE FROM blacklist_domains; DELETE FROM partner_blacklist; TRUNCATE sel_dirty, sel_record, sel_multi`),
  );
  await loadDraftWorld(t, world);
}

const bodyOf = draftBodyOf;

/** The live count of a draft: the direct answer, or (`viaTask`) the result of the task it hands on. */
async function liveCount(url: string, body: unknown, viaTask: boolean): Promise<LiveCount> {
  const post = async () => {
    const res = await t.api('POST', `${url}/live-count`, body as Record<string, unknown>);
    expect(res.statusCode, `${res.body} ${JSON.stringify(body)}`).toBe(200);
    return LiveCountAnswerSchema.parse(res.json());
  };
  if (!viaTask) {
    const answer = await post();
    if (answer.state !== 'done') throw new Error(`expected a direct answer for ${JSON.stringify(body)}`);
    return answer.count;
  }
  // Held a little past the hand-over, about 2 s in all.
  const answer = await withDatasetsLocked(t.url, post, 400);
  if (answer.state !== 'task') throw new Error(`expected a task for ${JSON.stringify(body)}`);
  const task = await waitForTask(t, t.cookie, answer.task._id);
  expect(task.state, task.error).toBe('done');
  expect(LiveCountSchema.parse(task.result).query).toBe(answer.query);
  return LiveCountSchema.parse(task.result);
}

/** Checks a live count against the evaluator's candidates and funnel of the same draft. */
function expectEvaluated(world: World, count: LiveCount, tree: QueryNode, s: EvalSettings): number {
  const now = new Date();
  const context = JSON.stringify({ tree, s });
  const expected = evaluate(world, tree, s, now);
  // The found rows, as countsOf writes them ("datasetId category" → n, no zeros).
  const cells: Record<string, number> = {};
  for (const row of count.rows.filter((r) => !r.saved)) {
    for (const c of CATEGORIES) if (row[c] > 0) cells[`${row.dataset.id} ${c}`] = row[c];
    expect(row.total, context).toBe(CATEGORIES.reduce((n, c) => n + row[c], 0));
  }
  expect(cells, context).toEqual(Object.fromEntries(countsOf(expected)));
  // The saved rows: what the mailing holds, per dataset.
  const held: Record<string, number> = {};
  for (const x of world.mailing.addresses) held[x.datasetId] = (held[x.datasetId] ?? 0) + 1;
  const savedRows = count.rows.filter((r) => r.saved);
  expect(Object.fromEntries(savedRows.map((r) => [r.dataset.id, r.total])), context).toEqual(held);
  // The funnel: its total, and per top-level line the evaluator's count of the lines up to it.
  expect(count.funnel.total, context).toBe(expected.size);
  const lines = 'and' in tree ? tree.and : [tree];
  expect(count.funnel.lines.map((l) => l.query)).toEqual(lines.map((line) => renderQuery(line)));
  expect(
    count.funnel.lines.map((l) => l.remaining),
    context,
  ).toEqual(lines.map((_, k) => evaluate(world, { and: lines.slice(0, k + 1) }, s, now).size));
  return expected.size;
}

describe('the live count of random drafts against the evaluator', () => {
  for (const seed of WORLDS) {
    it(`world ${seed}: figures and funnel equal the evaluator's, direct and through a task`, {
      timeout: 120_000,
    }, async () => {
      const world = makeWorld(seed);
      await loadWorld(world);
      useFiles(world);
      const url = `/api/campaigns/${world.campaign.id}/mailings/${world.mailing.id}/selections`;
      const drafts = fc.sample(fc.tuple(treeArb(world), settingsArb(world)), {
        numRuns: TREES_PER_WORLD,
        seed,
      });
      let nonEmpty = 0;
      let tasks = 0;
      for (const [i, [tree, s]] of drafts.entries()) {
        // The category bound is the app's setting 'Minimale verzendingen'.
        await saveSettings(t.db, { minMailings: s.minMailings, solarId: '' });
        const viaTask = i % TASK_EVERY === TASK_EVERY - 1;
        const count = await liveCount(url, bodyOf(world, tree, s), viaTask);
        if (viaTask) tasks++;
        if (expectEvaluated(world, count, QueryTreeSchema.parse(tree), s) > 0) nonEmpty++;
      }
      // The generators must reach real results, not only empty sets.
      expect(nonEmpty).toBeGreaterThan(TREES_PER_WORLD / 5);
      expect(tasks).toBeGreaterThanOrEqual(3);
    });
  }
});
