import { describe, expect, it } from 'vitest';
import { describeLine } from '../../../common/query-description';
import type { QueryNode } from '../../../common/query-tree';
import { describeContextOf, editableRoot, fromTemplate, nodeAt, reduceQuery } from './query-editor-state';

const pc: QueryNode = { match: { postcode: '10*' } };
const label: QueryNode = { dataset: { type: 'Nieuws' } };
const interest: QueryNode = { interests: { click: ['Reizen'] } };

describe('query editor reducer', () => {
  it('adds groups and lines at any depth without changing the old tree', () => {
    const root: QueryNode = { and: [] };
    const a = reduceQuery(root, { type: 'addLine', path: [], node: pc });
    const b = reduceQuery(a, { type: 'addGroup', path: [], kind: 'or' });
    const c = reduceQuery(b, { type: 'addLine', path: [1], node: label });
    const d = reduceQuery(c, { type: 'addLine', path: [1], node: interest });
    expect(d).toEqual({ and: [pc, { or: [label, interest] }] });
    expect(root).toEqual({ and: [] });
    expect(b).toEqual({ and: [pc, { or: [] }] });
  });

  it('negates and un-negates a line or a group, never the root', () => {
    const tree: QueryNode = { and: [pc, { or: [label, interest] }] };
    const negated = reduceQuery(tree, { type: 'negate', path: [1, 1] });
    expect(negated).toEqual({ and: [pc, { or: [label, { not: interest }] }] });
    expect(reduceQuery(negated, { type: 'negate', path: [1, 1] })).toEqual(tree);
    expect(reduceQuery(tree, { type: 'negate', path: [1] })).toEqual({
      and: [pc, { not: { or: [label, interest] } }],
    });
    expect(reduceQuery(tree, { type: 'negate', path: [] })).toBe(tree);
  });

  it('reaches through a not: a line inside a negated group is edited by index 0', () => {
    const tree: QueryNode = { and: [{ not: { or: [label] } }] };
    expect(nodeAt(tree, [0, 0, 0])).toEqual(label);
    expect(reduceQuery(tree, { type: 'addLine', path: [0, 0], node: pc })).toEqual({
      and: [{ not: { or: [label, pc] } }],
    });
    expect(reduceQuery(tree, { type: 'remove', path: [0, 0, 0] })).toEqual({ and: [{ not: { or: [] } }] });
  });

  it('moves a node up and down among its siblings and stops at the ends', () => {
    const tree: QueryNode = { and: [pc, label, interest] };
    expect(reduceQuery(tree, { type: 'move', path: [2], offset: -1 })).toEqual({
      and: [pc, interest, label],
    });
    expect(reduceQuery(tree, { type: 'move', path: [0], offset: 1 })).toEqual({ and: [label, pc, interest] });
    expect(reduceQuery(tree, { type: 'move', path: [0], offset: -1 })).toEqual(tree);
    expect(reduceQuery(tree, { type: 'move', path: [2], offset: 1 })).toEqual(tree);
  });

  it('removes, replaces and switches and/or; removing the root gives the empty query', () => {
    const tree: QueryNode = { and: [pc, { or: [label] }] };
    expect(reduceQuery(tree, { type: 'remove', path: [1] })).toEqual({ and: [pc] });
    expect(reduceQuery(tree, { type: 'remove', path: [] })).toEqual({ and: [] });
    expect(reduceQuery(tree, { type: 'replace', path: [0], node: interest })).toEqual({
      and: [interest, { or: [label] }],
    });
    expect(reduceQuery(tree, { type: 'toggleKind', path: [1] })).toEqual({ and: [pc, { and: [label] }] });
    expect(reduceQuery(tree, { type: 'toggleKind', path: [] })).toEqual({ or: [pc, { or: [label] }] });
  });

  it('ignores paths that do not exist and keeps the root a group', () => {
    const tree: QueryNode = { and: [pc] };
    expect(reduceQuery(tree, { type: 'remove', path: [5] })).toEqual(tree);
    expect(reduceQuery(tree, { type: 'addLine', path: [0], node: label })).toEqual(tree);
    expect(editableRoot(pc)).toEqual({ and: [pc] });
    expect(editableRoot({ not: pc })).toEqual({ and: [{ not: pc }] });
    expect(reduceQuery(tree, { type: 'replace', path: [], node: label })).toEqual({ and: [label] });
  });
});

describe('a template as the start of a selection', () => {
  it('names the template on every file line, at any depth, and leaves the other lines alone', () => {
    const source = { selection: 's1', campaign: 'c1', mailing: 'm1' };
    const file = { id: 'l1', name: 'klanten.csv', fields: ['gen_id'] };
    const tree: QueryNode = {
      and: [
        pc,
        { or: [{ intersect: file }, { not: { complement: { ...file, id: 'l2', selection: 'oud' } } }] },
      ],
    };
    expect(fromTemplate(tree, source)).toEqual({
      and: [
        pc,
        {
          or: [
            { intersect: { ...file, ...source } },
            { not: { complement: { ...file, id: 'l2', ...source } } },
          ],
        },
      ],
    });
    expect(tree).toEqual({
      and: [
        pc,
        { or: [{ intersect: file }, { not: { complement: { ...file, id: 'l2', selection: 'oud' } } }] },
      ],
    });
  });
});

describe('describeContextOf', () => {
  it('names a dataset line by the name the last count found, and keeps the file rows', () => {
    const context = describeContextOf({
      fileRows: { l1: 42 },
      results: { lines: [{ row: { dataset: { id: 'd7', name: 'Klanten 2024' } } }] },
    });
    expect(context.fileRows).toEqual({ l1: 42 });
    expect(describeLine({ dataset: { id: 'd7' } }, context)).toBe('Uit bestand Klanten 2024');
    expect(describeLine({ dataset: { id: 'd7' } }, describeContextOf({ fileRows: {}, results: null }))).toBe(
      'Uit bestand d7',
    );
  });
});
