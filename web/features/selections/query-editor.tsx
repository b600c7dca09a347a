import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconBan,
  IconFolderPlus,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { type DescribeContext, describeLine } from '../../../common/query-description';
import { ATTRIBUTE_OPERATORS, MORE_ATTRIBUTE_OPERATORS, type QueryNode } from '../../../common/query-tree';
import { editQuery, setDraft, useDraft } from './builder-store';
import { useLineDrawer } from './line-editor-drawer';
import { childrenOf, describeContextOf, leafKind, type NodePath } from './query-editor-state';

// spec 001 §2: the query editor shows the tree as nested and/or/not groups that can be added,
// moved, negated and removed; a line is added or edited in the line drawer over the builder. Each line
// reads as Dutch text (common/query-description.ts); the raw query text is on the 'Query' tab.

/** The line editor's route type of a leaf (every operator of an attribute line is an attribute line). */
export function lineTypeOf(node: QueryNode): string {
  const kind = leafKind(node);
  return (ATTRIBUTE_OPERATORS as readonly string[]).includes(kind) ||
    (MORE_ATTRIBUTE_OPERATORS as readonly string[]).includes(kind)
    ? 'attribute'
    : kind;
}

interface NodeProps {
  node: QueryNode;
  /** The path of the node itself (inside any 'not'). */
  path: NodePath;
  /** The path of what is moved, negated and removed: the 'not' around the node, if any. */
  outerPath: NodePath;
  negated: boolean;
  index: number;
  count: number;
  disabled: boolean;
  /** What the lines' texts need beside the tree (the rows of the line files read in this browser). */
  context: DescribeContext;
}

function NodeActions(props: NodeProps & { onEdit?: () => void }) {
  const { outerPath, index, count, disabled } = props;
  const action = (
    label: string,
    icon: ReactNode,
    onClick: () => void,
    isDisabled = false,
    color?: string,
  ) => (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color={color}
        aria-label={label}
        onClick={onClick}
        disabled={disabled || isDisabled}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Group gap={2} wrap="nowrap">
      {props.onEdit && action('Bewerk regel', <IconPencil size={16} />, props.onEdit)}
      {action(
        'Omhoog',
        <IconArrowUp size={16} />,
        () => editQuery({ type: 'move', path: outerPath, offset: -1 }),
        index === 0,
      )}
      {action(
        'Omlaag',
        <IconArrowDown size={16} />,
        () => editQuery({ type: 'move', path: outerPath, offset: 1 }),
        index === count - 1,
      )}
      {action(props.negated ? 'Niet meer uitsluiten' : 'Uitsluiten', <IconBan size={16} />, () =>
        editQuery({ type: 'negate', path: outerPath }),
      )}
      {action(
        'Verwijder',
        <IconTrash size={16} />,
        () => editQuery({ type: 'remove', path: outerPath }),
        false,
        'red',
      )}
    </Group>
  );
}

function NodeView(props: NodeProps) {
  const { node, path, disabled } = props;
  const lineDrawer = useLineDrawer();
  if ('not' in node) {
    return <NodeView {...props} node={node.not} path={[...path, 0]} negated={!props.negated} />;
  }
  const openLineEditor = (mode: 'add' | 'edit', type?: string) => {
    setDraft((d) => ({ ...d, editContext: { path, mode } }));
    lineDrawer.open(type);
  };
  const children = childrenOf(node);
  if (!children) {
    return (
      <Paper withBorder px="sm" py={4} data-testid="query-line" data-negated={props.negated}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            {props.negated && <Badge color="red">NIET</Badge>}
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="query-line-text">
              {describeLine(node, props.context)}
            </Text>
          </Group>
          <NodeActions {...props} onEdit={() => openLineEditor('edit', lineTypeOf(node))} />
        </Group>
      </Paper>
    );
  }
  const kind = 'or' in node ? 'or' : 'and';
  const isRoot = props.outerPath.length === 0;
  return (
    <Paper
      withBorder
      p="xs"
      data-testid="query-group"
      data-kind={kind}
      data-negated={props.negated}
      bg={props.negated ? 'red.0' : undefined}
    >
      <Group justify="space-between" mb={children.length ? 'xs' : 0} wrap="nowrap">
        <Group gap="xs">
          {props.negated && <Badge color="red">NIET</Badge>}
          <SegmentedControl
            size="xs"
            aria-label="Groep: alle of een van de regels"
            value={kind}
            disabled={disabled}
            onChange={(v) => v !== kind && editQuery({ type: 'toggleKind', path })}
            data={[
              { value: 'and', label: 'EN (alle)' },
              { value: 'or', label: 'OF (een van)' },
            ]}
          />
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => openLineEditor('add')}
            disabled={disabled}
          >
            Regel toevoegen
          </Button>
          <Menu>
            <Menu.Target>
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconFolderPlus size={14} />}
                disabled={disabled}
              >
                Groep toevoegen
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => editQuery({ type: 'addGroup', path, kind: 'and' })}>
                EN-groep
              </Menu.Item>
              <Menu.Item onClick={() => editQuery({ type: 'addGroup', path, kind: 'or' })}>
                OF-groep
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        {!isRoot && <NodeActions {...props} />}
      </Group>
      {children.length === 0 ? (
        <Text size="sm" c="dimmed">
          {isRoot ? 'Nog geen regels: de selectie omvat alle adressen.' : 'Lege groep'}
        </Text>
      ) : (
        <Stack gap={6} pl="md">
          {children.map((child, i) => (
            <NodeView
              // biome-ignore lint/suspicious/noArrayIndexKey: a node has no id; its place is its identity.
              key={i}
              node={child}
              path={[...path, i]}
              outerPath={[...path, i]}
              negated={false}
              index={i}
              count={children.length}
              disabled={disabled}
              context={props.context}
            />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** The query tree as nested groups with their actions. */
export function QueryEditor({ query, disabled = false }: { query: QueryNode; disabled?: boolean }) {
  const draft = useDraft();
  return (
    <NodeView
      node={query}
      path={[]}
      outerPath={[]}
      negated={false}
      index={0}
      count={1}
      disabled={disabled}
      context={describeContextOf(draft)}
    />
  );
}
