import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveCount } from '../../../common/selections';
import { getDraft, newDraft, setDraft } from '../selections/builder-store';
import { countErrorText, countNow, scheduleCount, stopCount } from './live-count-runner';

// The builder's live count, one at a time: a newer count aborts the request in flight (which
// cancels its statement on the server) or cancels the task a slow count became; a count already
// running for the same draft goes on; a file not yet uploaded is not counted. fetch is stubbed.

interface Call {
  url: string;
  body: unknown;
  signal: AbortSignal | undefined;
  answer: (status: number, body: unknown) => void;
}
let calls: Call[] = [];

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    return new Promise((resolve, reject) => {
      const signal = init.signal ?? undefined;
      signal?.addEventListener('abort', () =>
        reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
      );
      calls.push({
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
        signal,
        answer: (status, body) => resolve(new Response(JSON.stringify(body), { status })),
      });
    });
  });
  setDraft(() => ({ ...newDraft('c1', 'm1'), query: { and: [{ match: { gender: 'M' } }] } }));
});
afterEach(() => {
  stopCount();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const count = (total: number): LiveCount => ({
  query: 'q',
  rows: [],
  funnel: { total, lines: [{ query: 'q', remaining: total }] },
  countedAt: '2026-11-29T10:00:00.000Z',
});
const liveCalls = () => calls.filter((c) => c.url.endsWith('/live-count'));
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the live count runner', () => {
  it('aborts the count in flight for a newer one and shows only the newer figures', async () => {
    const first = countNow();
    await flush();
    setDraft((d) => ({ ...d, query: { and: [{ match: { gender: 'V' } }] }, revision: d.revision + 1 }));
    const second = countNow();
    await flush();
    expect(liveCalls()).toHaveLength(2);
    expect(liveCalls()[0].signal?.aborted).toBe(true);
    expect(liveCalls()[1].body).toMatchObject({
      query: { and: [{ match: { gender: 'V' } }] },
      selectionId: null,
    });
    liveCalls()[1].answer(200, { state: 'done', count: count(7) });
    await Promise.all([first, second]);
    expect(getDraft()).toMatchObject({ counting: false, funnel: { total: 7 }, countError: null });
  });

  it('lets a count already running for the same draft go on when a count is scheduled', async () => {
    const running = countNow();
    await flush();
    scheduleCount();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(liveCalls()).toHaveLength(1);
    expect(liveCalls()[0].signal?.aborted).toBe(false);
    liveCalls()[0].answer(200, { state: 'done', count: count(3) });
    await running;
    expect(getDraft().funnel?.total).toBe(3);
  });

  it('cancels the task of a slow count when a newer count starts', async () => {
    const first = countNow();
    await flush();
    const task = {
      _id: 't1',
      type: 'selection-count',
      state: 'executing',
      percentage: 0,
      progress: null,
      date: '2026-11-29T10:00:00Z',
      file: null,
      error: null,
      message: null,
      partner: null,
      dataset: null,
      username: 'jan',
      result: null,
    };
    liveCalls()[0].answer(200, { state: 'task', task, query: 'q' });
    await flush();
    await flush();
    setDraft((d) => ({ ...d, query: { and: [] }, revision: d.revision + 1 }));
    void countNow();
    await flush();
    expect(calls.some((c) => c.url.endsWith('/tasks/t1/cancel'))).toBe(true);
    await first;
  });

  it('does not count a draft whose file line has a file not yet uploaded, and says why', async () => {
    const file = new File(['email\na@b.nl\n'], 'klanten.csv');
    setDraft((d) => ({
      ...d,
      query: { and: [{ intersect: { id: 'l1', name: 'klanten.csv', fields: ['gen_id'] } }] },
      files: { l1: { file, mappings: [] } },
    }));
    await countNow();
    expect(liveCalls()).toHaveLength(0);
    expect(getDraft().countError).toBe('Het bestand klanten.csv telt mee zodra de selectie is opgeslagen.');
  });

  it("shows the server's message when the draft cannot be counted", async () => {
    const running = countNow();
    await flush();
    liveCalls()[0].answer(400, { message: 'Regel 1 heeft geen bestand.' });
    await running;
    expect(getDraft()).toMatchObject({ counting: false, countError: 'Regel 1 heeft geen bestand.' });
  });

  it('shows Mislukt, not an English developer message, for an answer of the wrong shape', async () => {
    const running = countNow();
    await flush();
    liveCalls()[0].answer(200, { state: 'done', count: { onverwacht: true } });
    await running;
    expect(getDraft()).toMatchObject({ counting: false, countError: 'Mislukt' });
    expect(countErrorText(new TypeError('Failed to fetch'))).toBe('Mislukt');
    expect(countErrorText(new Error('De telling duurde te lang'))).toBe('De telling duurde te lang');
  });
});
