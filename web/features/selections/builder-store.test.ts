import { describe, expect, it } from 'vitest';
import type { LiveCount, ResultRow } from '../../../common/selections';
import {
  allocatableTable,
  countKeyOf,
  getDraft,
  loadSelection,
  newDraft,
  setDraft,
  showCount,
} from './builder-store';

// What 'Toewijzen' may allocate: only figures counted on this screen for the tree, settings and
// files on screen, with no count running and no error since.

const row: ResultRow = {
  dataset: { id: 'd1', name: 'Eén', factor: 1, sort: 1 },
  saved: false,
  sort: 1,
  new: 4,
  notOpenedOrClicked: 0,
  opens: 0,
  clicks: 0,
  total: 4,
};
const count: LiveCount = {
  query: 'q',
  rows: [row],
  funnel: { total: 4, lines: [] },
  countedAt: '2026-11-29T10:00:00Z',
};
const query = { and: [{ match: { gender: 'V' } }] };

/** A draft whose figures were counted here for its tree. */
function counted() {
  setDraft(() => ({ ...newDraft('c1', 'm1'), query }));
  showCount(count, countKeyOf(getDraft()), query);
  return getDraft();
}

describe('allocatableTable', () => {
  it('gives the edited table of figures counted here for what is on screen', () => {
    expect(allocatableTable(counted())).toEqual([
      { dataset: 'd1', new: 4, notOpenedOrClicked: 0, opens: 0, clicks: 0 },
    ]);
  });

  it('gives nothing while a count runs, after a failed recount, or for another tree', () => {
    expect(allocatableTable({ ...counted(), counting: true })).toEqual([]);
    expect(allocatableTable({ ...counted(), countError: 'De telling duurde te lang' })).toEqual([]);
    expect(allocatableTable({ ...counted(), query: { and: [] } })).toEqual([]);
  });

  it('gives nothing when a new file is chosen for a line, though its name and fields stay the same', () => {
    const file = new File(['mail\na@b.nl\n'], 'klanten.csv');
    expect(allocatableTable({ ...counted(), files: { l1: { file, mappings: [] } } })).toEqual([]);
  });

  it("gives nothing for a reopened selection's kept count until it is counted here", () => {
    loadSelection('c1', 'm1', {
      _id: 's1',
      campaign: 'c1',
      mailing: 'm1',
      date: '2026-11-29T09:00:00Z',
      recordCount: 0,
      description: '',
      query,
      preDefined: false,
      useBlacklist: true,
      activeDatasetsOnly: true,
      useCampaignLabel: true,
      useDate: true,
      pressure: { age: null },
      useDatasetsFrom: [],
      lastCount: count,
    });
    const reopened = getDraft();
    expect(reopened.results).not.toBeNull();
    expect(allocatableTable(reopened)).toEqual([]);
    showCount(count, countKeyOf(reopened), query);
    expect(allocatableTable(getDraft())).toHaveLength(1);
  });
});
