import { Table, type TableProps } from '@mantine/core';

/**
 * A table that scrolls sideways inside its own box when it is wider than the screen (a 390 px
 * phone), so the page keeps its width and the row actions stay reachable. Use it
 * for the root of every list's table; the parts stay Table.Thead, Table.Tr and so on.
 */
export function ScrollTable(props: TableProps) {
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table {...props} />
    </Table.ScrollContainer>
  );
}
