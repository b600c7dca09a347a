import { Progress, Table, Text } from '@mantine/core';
import { describeLine } from '../../../common/query-description';
import type { QueryNode } from '../../../common/query-tree';
import { ScrollTable } from '../../components/scroll-table';
import { formatCount } from '../../lib/numbers';
import type { BuilderDraft } from '../selections/builder-store';
import { describeContextOf } from '../selections/query-editor-state';

/** The top-level lines of a tree as the funnel counts them: the lines of its root 'and', else the root alone. */
const linesOf = (tree: QueryNode): QueryNode[] => ('and' in tree ? tree.and : [tree]);

/**
 * What each line costs: per top-level line of the counted tree, read as Dutch text, the addresses
 * left after it and how many it took away, with a bar against the first line's.
 */
export function FunnelPanel({ draft }: { draft: BuilderDraft }) {
  const funnel = draft.funnel;
  const tree = draft.resultQuery;
  if (!funnel || !tree) return <Text c="dimmed">Nog niet geteld.</Text>;
  const lines = linesOf(tree);
  if (funnel.lines.length === 0 || lines.length !== funnel.lines.length)
    return <Text c="dimmed">Deze query heeft geen regels om per regel te tellen.</Text>;
  const first = funnel.lines[0]?.remaining ?? 0;
  return (
    <ScrollTable verticalSpacing={4} data-testid="funnel-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>#</Table.Th>
          <Table.Th>Regel</Table.Th>
          <Table.Th>Over na deze regel</Table.Th>
          <Table.Th>Valt af</Table.Th>
          <Table.Th w={160} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {funnel.lines.map((line, i) => {
          const before = i === 0 ? null : funnel.lines[i - 1].remaining;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one count, by position.
            <Table.Tr key={i} data-testid="funnel-row">
              <Table.Td>{i + 1}</Table.Td>
              <Table.Td data-testid="funnel-line">
                {describeLine(lines[i], describeContextOf(draft))}
              </Table.Td>
              <Table.Td data-testid="funnel-remaining">{formatCount(line.remaining)}</Table.Td>
              <Table.Td>{before === null ? '' : formatCount(before - line.remaining)}</Table.Td>
              <Table.Td>
                <Progress value={first > 0 ? (100 * line.remaining) / first : 0} size="sm" />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </ScrollTable>
  );
}
