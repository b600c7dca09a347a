import type { DescribeContext } from '../../../common/query-description';
import { EMPTY_QUERY, isLeaf, type QueryNode } from '../../../common/query-tree';

// spec 001 §2/§3: the query editor shows the tree as nested and/or/not groups that can be added,
// moved, negated and removed. Nodes are addressed by their path of child indexes from the root
// group; every action returns a new tree and leaves the old one as it was.

/** The path of a node: child indexes from the root ([] is the root group). */
export type NodePath = number[];

/** One action of the query editor. */
export type QueryAction =
  | { type: 'addGroup'; path: NodePath; kind: 'and' | 'or' }
  | { type: 'addLine'; path: NodePath; node: QueryNode }
  | { type: 'replace'; path: NodePath; node: QueryNode }
  | { type: 'remove'; path: NodePath }
  | { type: 'negate'; path: NodePath }
  | { type: 'move'; path: NodePath; offset: -1 | 1 }
  | { type: 'toggleKind'; path: NodePath }
  | { type: 'reset'; node?: QueryNode };

/** The children of an and/or group, or null for anything else. */
export function childrenOf(node: QueryNode): QueryNode[] | null {
  if ('and' in node) return node.and;
  if ('or' in node) return node.or;
  return null;
}

/** A tree whose root is an and/or group (a loaded root leaf or 'not' becomes the one entry of an 'and'). */
export function editableRoot(node: QueryNode | null | undefined): QueryNode {
  if (!node) return EMPTY_QUERY;
  return childrenOf(node) ? node : { and: [node] };
}

/** The node at a path, or undefined. A 'not' is passed through by the index 0. */
export function nodeAt(root: QueryNode, path: NodePath): QueryNode | undefined {
  let node: QueryNode | undefined = root;
  for (const index of path) {
    if (!node) return undefined;
    if ('not' in node) node = index === 0 ? node.not : undefined;
    else node = childrenOf(node)?.[index];
  }
  return node;
}

function withChildren(node: QueryNode, children: QueryNode[]): QueryNode {
  return 'or' in node ? { or: children } : { and: children };
}

/** Replaces the node at `path` by `update(node)`; a null answer removes it from its group. */
function updateAt(root: QueryNode, path: NodePath, update: (node: QueryNode) => QueryNode | null): QueryNode {
  if (path.length === 0) return update(root) ?? EMPTY_QUERY;
  const [index, ...rest] = path;
  if ('not' in root) {
    if (index !== 0) return root;
    const inner = rest.length === 0 ? update(root.not) : updateAt(root.not, rest, update);
    return inner ? { not: inner } : EMPTY_QUERY;
  }
  const children = childrenOf(root);
  if (!children || index < 0 || index >= children.length) return root;
  const next = [...children];
  const changed = rest.length === 0 ? update(children[index]) : updateAt(children[index], rest, update);
  if (changed === null) next.splice(index, 1);
  else next[index] = changed;
  return withChildren(root, next);
}

/** Applies one editor action to the tree and returns the new tree (unknown paths change nothing). */
export function reduceQuery(root: QueryNode, action: QueryAction): QueryNode {
  switch (action.type) {
    case 'reset':
      return editableRoot(action.node ?? EMPTY_QUERY);
    case 'addGroup':
    case 'addLine': {
      const added: QueryNode =
        action.type === 'addGroup' ? (action.kind === 'or' ? { or: [] } : { and: [] }) : action.node;
      return updateAt(root, action.path, (group) => {
        const children = childrenOf(group);
        return children ? withChildren(group, [...children, added]) : group;
      });
    }
    case 'replace':
      return editableRoot(updateAt(root, action.path, () => action.node));
    case 'remove':
      if (action.path.length === 0) return EMPTY_QUERY;
      return updateAt(root, action.path, () => null);
    case 'negate':
      if (action.path.length === 0) return root;
      return updateAt(root, action.path, (node) => ('not' in node ? node.not : { not: node }));
    case 'toggleKind':
      return updateAt(root, action.path, (node) =>
        'and' in node ? { or: node.and } : 'or' in node ? { and: node.or } : node,
      );
    case 'move': {
      if (action.path.length === 0) return root;
      const parentPath = action.path.slice(0, -1);
      const index = action.path[action.path.length - 1];
      return updateAt(root, parentPath, (group) => {
        const children = childrenOf(group);
        const target = index + action.offset;
        if (!children || target < 0 || target >= children.length) return group;
        const next = [...children];
        [next[index], next[target]] = [next[target], next[index]];
        return withChildren(group, next);
      });
    }
  }
}

/** The kind of a leaf (its one key: match, in, range, dateRange, contains, dataset, interests, intersect, complement). */
export function leafKind(node: QueryNode): string {
  return isLeaf(node) ? Object.keys(node)[0] : '';
}

/** Where a template comes from: the predefined selection and its campaign and mailing. */
export interface TemplateSource {
  selection: string;
  campaign: string;
  mailing: string;
}

/**
 * A template's tree as the start of another selection: every Bestandsmatch / Bestand uitsluiten
 * line names the template as the selection that holds its file (spec 001 §3), so the save copies
 * that file along. Other lines stay as they are.
 */
export function fromTemplate(node: QueryNode, source: TemplateSource): QueryNode {
  if ('and' in node) return { and: node.and.map((n) => fromTemplate(n, source)) };
  if ('or' in node) return { or: node.or.map((n) => fromTemplate(n, source)) };
  if ('not' in node) return { not: fromTemplate(node.not, source) };
  if ('intersect' in node) return { intersect: { ...node.intersect, ...source } };
  if ('complement' in node) return { complement: { ...node.complement, ...source } };
  return node;
}

/** What the builder's line texts read beside the tree: the draft's file row counts and the counted datasets. */
export interface DescribeSource {
  fileRows: Readonly<Record<string, number>>;
  results: { lines: readonly { row: { dataset: { id: string; name: string } } }[] } | null;
}

/**
 * The context of the builder's line texts: the rows of the line files and the names of the
 * datasets the last count found, so a line on a dataset reads 'Uit bestand Klanten 2024', not its id.
 */
export function describeContextOf(d: DescribeSource): DescribeContext {
  const datasetNames = Object.fromEntries(
    (d.results?.lines ?? []).map((l) => [l.row.dataset.id, l.row.dataset.name]),
  );
  return { fileRows: d.fileRows, datasetNames };
}
