import { describe, expect, it } from 'vitest';
import { ReportMessages } from '../../../common/reports';
import { setupTestApp } from '../../test/app';

// A report's period at the ends of the calendar: a month the database and the month arithmetic
// cannot hold is refused with the Dutch message, and a filled-in end never runs past them.

const t = setupTestApp({ startWorker: false });

describe("a report's period", () => {
  it('refuses years before 1900 with the Dutch message, and stops a period at 9999-12', async () => {
    for (const query of ['from=0000-01', 'to=0000-01', 'from=1899-12&to=1900-02', 'to=0001-01']) {
      const res = await t.api('GET', `/api/reports/partners?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBe(ReportMessages.month);
    }
    const late = await t.api('GET', '/api/reports/partners?from=9999-12');
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ from: '9999-12', to: '9999-12' });
    expect(late.json().months.map((m: { month: string }) => m.month)).toEqual(['9999-12']);
    // The last month given as both ends: one month, not a run of months past 9999.
    const last = await t.api('GET', '/api/reports/partners?from=9999-12&to=9999-12');
    expect(last.json().months).toHaveLength(1);
    const early = await t.api('GET', '/api/reports/partners?to=1900-03');
    expect(early.json()).toMatchObject({ from: '1900-01', to: '1900-03' });
  });
});
