import { describe, expect, it } from 'vitest';
import type { Mailing } from '../../../common/mailings';
import type { PartnerReport, Timeline } from '../../../common/reports';
import { setupTestApp } from '../../test/app';
import { buildWorld, REMOVALS, type WorldMailing } from './report.test-helpers';

// A mailing sent with results, taken back to Concept, addresses removed and sent again: its
// removed addresses' results go with them, so the mailings screen, the report (its kept facts
// included: they were kept before the removal) and the timeline give the same figures, for every
// way addresses leave a draft.

const t = setupTestApp({ startWorker: false });

describe('results of addresses removed from a mailing that went back from Aangeboden', () => {
  it.each(REMOVALS)('are gone after a %s: the mailings screen, report and timeline agree', async (path) => {
    const at = (event: 'open' | 'click' | 'hardBounce') => ({ event, minutes: 30 });
    const world: WorldMailing[] = [
      {
        state: 'offered',
        plannedSend: '2025-02-15T09:00:00Z',
        // Kept: the first two (a limit removes the highest address ids first, all being new).
        addresses: [
          { dataset: 0, events: [at('open'), at('click')] },
          { dataset: 0, events: [at('open'), at('hardBounce')] },
          { dataset: 0, events: [at('open'), at('click'), at('hardBounce')] },
          { dataset: 0, events: [] },
        ],
        back: { path, keep: 2 },
      },
    ];
    const { campaign, made, kept, datasets } = await buildWorld(t, world);
    expect(kept[0].addresses).toHaveLength(2);
    const [screen]: Mailing[] = (await t.api('GET', `/api/campaigns/${campaign}/mailings`)).json();
    expect(screen).toMatchObject({
      state: 'offered',
      recordCount: 2,
      results: { opens: 2, clicks: 1, bounces: 1 },
    });
    const report: PartnerReport = (
      await t.api('GET', '/api/reports/partners?from=2025-02&to=2025-02')
    ).json();
    expect(report.rows).toEqual([
      expect.objectContaining({
        datasetId: datasets[0].id,
        mailings: 1,
        delivered: 2,
        opens: 2,
        clicks: 1,
        bounces: 1,
        hardBounces: 1,
      }),
    ]);
    const timeline: Timeline = (await t.api('GET', `/api/reports/mailings/${made[0]._id}/timeline`)).json();
    expect(timeline.total).toMatchObject({ delivered: 2, opens: 2, clicks: 1, bounces: 1, hardBounces: 1 });
  });
});
