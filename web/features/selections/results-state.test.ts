import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, DEFAULT_SELECTED_CATEGORIES, extraInzet } from '../../../common/extra-inzet';
import { type ResultRow, SelectionMessages } from '../../../common/selections';
import {
  editCell,
  linesOf,
  readCell,
  redistributeLines,
  selectLine,
  tableOf,
  totalsOf,
} from './results-state';

const row = (id: string, counts: [number, number, number, number], factor = 1, saved = false): ResultRow => ({
  dataset: { id, name: `Bestand ${id}`, factor, sort: saved ? -1 : 1 },
  saved,
  sort: saved ? -1 : 1,
  new: counts[0],
  notOpenedOrClicked: counts[1],
  opens: counts[2],
  clicks: counts[3],
  total: counts.reduce((a, b) => a + b, 0),
});

describe('results table', () => {
  it('starts the saved rows unselected and the others selected with the original counts', () => {
    const lines = linesOf([row('a', [5, 0, 0, 0], 1, true), row('a', [10, 4, 3, 2])]);
    expect(lines.map((l) => l.selected)).toEqual([false, true]);
    expect(lines[1].modified).toEqual({ new: 10, notOpenedOrClicked: 4, opens: 3, clicks: 2, total: 19 });
    expect(selectLine(lines, lines[0].key, true)[0].selected).toBe(false);
  });

  it('sets an edited cell, recomputes the total and marks the row changed', () => {
    const [line] = linesOf([row('a', [10, 4, 3, 2])]);
    const edited = editCell([line], line.key, 'new', 7)[0];
    expect(edited.modified).toMatchObject({ new: 7, total: 16 });
    expect(edited.changed).toBe(true);
    expect(editCell([line], line.key, 'opens', 0)[0].modified).toMatchObject({ opens: 0, total: 16 });
    expect(line.changed).toBe(false);
  });

  it('never clamps: a value above the original, below 0 or no whole number changes nothing', () => {
    const lines = linesOf([row('a', [10, 4, 3, 2])]);
    for (const value of [25, 11, -3, 1.7, Number.NaN]) {
      expect(editCell(lines, lines[0].key, 'new', value)).toEqual(lines);
    }
  });

  it('reads a typed cell like every number, and refuses more than is available with a message', () => {
    expect(readCell('375', 375)).toEqual({ ok: true, value: 375 });
    expect(readCell('0', 375)).toEqual({ ok: true, value: 0 });
    expect(readCell('1.250', 4200)).toEqual({ ok: true, value: 1250 });
    // '1.375' is 1375, not 1.375 and not 375: more than the 375 available.
    expect(readCell('1.375', 375)).toEqual({ ok: false, message: 'Er zijn maar 375 adressen beschikbaar' });
    expect(readCell('4201', 4200)).toEqual({ ok: false, message: 'Er zijn maar 4.200 adressen beschikbaar' });
    expect(readCell('1', 0)).toEqual({ ok: false, message: 'Er zijn maar 0 adressen beschikbaar' });
    for (const wrong of ['1,5', '-3', '', 'abc', '1.5']) {
      expect(readCell(wrong, 375)).toEqual({ ok: false, message: SelectionMessages.countInvalid });
    }
  });

  it('never edits a saved row', () => {
    const lines = linesOf([row('a', [5, 0, 0, 0], 1, true)]);
    expect(editCell(lines, lines[0].key, 'new', 1)).toEqual(lines);
  });

  it('redistributes with extra inzet: opens and clicks kept, the extra to new then notOpenedOrClicked', () => {
    // factor 1.5 on 40 opens+clicks: extra 20, new holds 12, the other 8 go to notOpenedOrClicked.
    const lines = linesOf([row('a', [12, 30, 25, 15], 1.5), row('b', [9, 9, 9, 9], 1)]);
    const after = redistributeLines(lines, DEFAULT_SELECTED_CATEGORIES);
    expect(after[0].modified).toEqual({ new: 12, notOpenedOrClicked: 8, opens: 25, clicks: 15, total: 60 });
    expect(after[1].modified).toEqual({ new: 0, notOpenedOrClicked: 0, opens: 9, clicks: 9, total: 18 });
    expect(after.every((l) => l.changed)).toBe(true);
    expect(tableOf(after)).toEqual([
      { dataset: 'a', new: 12, notOpenedOrClicked: 8, opens: 25, clicks: 15 },
      { dataset: 'b', new: 0, notOpenedOrClicked: 0, opens: 9, clicks: 9 },
    ]);
    expect(totalsOf(after).selected.total).toBe(78);
  });

  it('leaves unselected rows out of the redistribution, the totals and the table', () => {
    const lines = linesOf([row('s', [3, 0, 0, 0], 1, true), row('a', [1, 1, 1, 1]), row('b', [2, 2, 2, 2])]);
    const chosen = selectLine(lines, lines[2].key, false);
    const after = redistributeLines(chosen, DEFAULT_SELECTED_CATEGORIES);
    expect(after[2].modified.total).toBe(8);
    expect(tableOf(after).map((t) => t.dataset)).toEqual(['a']);
    expect(totalsOf(after)).toEqual({
      selected: { new: 0, notOpenedOrClicked: 0, opens: 1, clicks: 1, total: 2 },
      saved: { new: 3, notOpenedOrClicked: 0, opens: 0, clicks: 0, total: 3 },
    });
  });

  it('property: every redistributed cell stays within 0 and its original, the extra never exceeds the rule', () => {
    const counts = fc.tuple(fc.nat(500), fc.nat(500), fc.nat(500), fc.nat(500));
    fc.assert(
      fc.property(
        counts,
        counts,
        fc.integer({ min: 0, max: 3000 }).map((n) => n / 1000),
        fc.record({
          new: fc.boolean(),
          notOpenedOrClicked: fc.boolean(),
          opens: fc.boolean(),
          clicks: fc.boolean(),
        }),
        (orig, typed, factor, categories) => {
          let [line] = linesOf([row('a', orig, factor)]);
          CATEGORIES.forEach((c, i) => {
            line = editCell([line], line.key, c, typed[i])[0];
          });
          const [after] = redistributeLines([line], categories);
          CATEGORIES.forEach((c) => {
            expect(after.modified[c]).toBeGreaterThanOrEqual(0);
            expect(after.modified[c]).toBeLessThanOrEqual(line.original[c]);
          });
          const bought = after.modified.opens + after.modified.clicks;
          const base =
            (categories.new ? line.modified.new : 0) +
            (categories.notOpenedOrClicked ? line.modified.notOpenedOrClicked : 0);
          expect(after.modified.new + after.modified.notOpenedOrClicked - base).toBeLessThanOrEqual(
            extraInzet(bought, factor),
          );
          expect(after.modified.total).toBe(CATEGORIES.reduce((sum, c) => sum + after.modified[c], 0));
        },
      ),
    );
  });
});
