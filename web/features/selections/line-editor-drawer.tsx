import { Button, Card, Drawer, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { type ReactNode, useRef } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import type { QueryNode } from '../../../common/query-tree';
import { selectionPaths } from './api';
import { AttributeLineForm } from './attribute-line-form';
import { type EditContext, editQuery, getDraft, setDraft, useDraft } from './builder-store';
import { FileLineForm } from './file-line-form';
import type { LineFormProps } from './line-form-shell';
import { nodeAt } from './query-editor-state';
import { ContainsLineForm, InterestLineForm, LabelLineForm } from './simple-line-forms';

// spec 001 §2: a line is added or edited in a drawer over the builder, so the draft, the results
// and the scroll position stay. The drawer's state is the builder URL's `line` search param (the
// menu or a line type): back and forward open and close it, and a changed search param does not
// remount the screen as a changed path does. The spec's /selection-builder/add-line/{type?} routes
// open the builder of the draft with that param.

/** spec 001 §2: the line types of the add-line menu, by their route type. */
export const LINE_TYPES = [
  {
    type: 'attribute',
    label: 'Selecteren op kenmerken',
    help: 'Een kenmerk met is, is een van, tussen, leeftijd, (niet) leeg, begint met of bevat',
  },
  { type: 'dataset', label: 'Label', help: 'Adressen uit bestanden met een label' },
  { type: 'interests', label: 'Interesse type', help: 'Klik- of openinteresses' },
  { type: 'contains', label: 'Externe kenmerken', help: 'Besturingssysteem, e-mailadres of domein' },
  { type: 'intersect', label: 'Bestandsmatch', help: 'Alleen adressen die in een bestand staan' },
  { type: 'complement', label: 'Bestand uitsluiten', help: 'Geen adressen die in een bestand staan' },
] as const;

/** The builder URL's search param that holds the open drawer: `menu` or a line type. */
const LINE_PARAM = 'line';
const MENU = 'menu';
// Marks a history entry the builder pushed to open the drawer: closing goes back over it.
const PUSHED = { isLineDrawerPushed: true };
// Without an edit context (a deep link, a reload) a line is added to the root group.
const ROOT_ADD: EditContext = { path: [], mode: 'add' };

/** The search of `search` with the line param set to `value` (or removed for null). */
function withLine(search: string, value: string | null): string {
  const params = new URLSearchParams(search);
  if (value === null) params.delete(LINE_PARAM);
  else params.set(LINE_PARAM, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function formFor(type: string, props: LineFormProps): ReactNode {
  switch (type) {
    case 'attribute':
      return <AttributeLineForm {...props} />;
    case 'dataset':
      return <LabelLineForm {...props} />;
    case 'interests':
      return <InterestLineForm {...props} />;
    case 'contains':
      return <ContainsLineForm {...props} />;
    case 'intersect':
    case 'complement':
      return <FileLineForm {...props} kind={type} />;
    default:
      return null;
  }
}

/**
 * The line drawer's state in the URL: `value` is the open drawer (`menu` or a line type) or null;
 * `open` opens it (the menu without a type) as a new history entry, `close` closes it.
 */
export function useLineDrawer() {
  const location = useLocation();
  const navigate = useNavigate();
  const value = new URLSearchParams(location.search).get(LINE_PARAM);
  const open = (type?: string) =>
    navigate(
      { pathname: location.pathname, search: withLine(location.search, type ?? MENU) },
      { state: PUSHED },
    );
  const close = () => {
    const state = location.state as typeof PUSHED | null;
    if (state?.isLineDrawerPushed) navigate(-1);
    else
      navigate({ pathname: location.pathname, search: withLine(location.search, null) }, { replace: true });
  };
  const linkTo = (v: string) => ({ pathname: location.pathname, search: withLine(location.search, v) });
  return { value, open, close, linkTo, state: location.state };
}

/**
 * The drawer of the builder that adds or edits a line (title 'Regel toevoegen' / 'Regel bewerken'
 * with the line type): the menu of line types, then the chosen type's form. Saving adds or edits the
 * line in the draft and closes it; 'Annuleren' or closing discards.
 */
export function LineEditorDrawer() {
  const drawer = useLineDrawer();
  const draft = useDraft();
  const isOpen = drawer.value !== null;
  // While closing, the drawer keeps showing what it showed (the URL and the context are gone by then).
  const shown = useRef({ value: MENU, context: ROOT_ADD });
  if (isOpen) shown.current = { value: drawer.value ?? MENU, context: draft.editContext ?? ROOT_ADD };
  const { value, context } = shown.current;
  const lineType = LINE_TYPES.find((t) => t.type === value);
  const current = context.mode === 'edit' ? (nodeAt(draft.query, context.path) ?? null) : null;

  const close = () => {
    setDraft((d) => ({ ...d, editContext: null }));
    drawer.close();
  };
  const handleSubmit = (node: QueryNode) => {
    const target = getDraft().editContext ?? ROOT_ADD;
    editQuery(
      target.mode === 'edit'
        ? { type: 'replace', path: target.path, node }
        : { type: 'addLine', path: target.path, node },
    );
    close();
  };
  const verb = context.mode === 'edit' ? 'Regel bewerken' : 'Regel toevoegen';

  return (
    <Drawer
      opened={isOpen}
      onClose={close}
      position="right"
      size="xl"
      title={lineType ? `${verb}: ${lineType.label}` : verb}
      closeButtonProps={{ 'aria-label': 'Sluiten' }}
    >
      {lineType ? (
        // Keyed by the line and its type: another line's form starts from that line.
        <div key={`${context.mode}:${context.path.join('.')}:${lineType.type}`}>
          {formFor(lineType.type, { current, onSubmit: handleSubmit, onCancel: close })}
        </div>
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {LINE_TYPES.map((t) => (
              <Card
                key={t.type}
                withBorder
                component={Link}
                to={drawer.linkTo(t.type)}
                state={drawer.state}
                replace
                aria-label={t.label}
              >
                <Text fw={600}>{t.label}</Text>
                <Text size="sm" c="dimmed">
                  {t.help}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <Group>
            <Button variant="default" onClick={close}>
              Annuleren
            </Button>
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}

/**
 * /selection-builder/add-line/{type?}: opens the builder of the draft with the line drawer on the
 * menu, or on the type's form. The builder starts without an edit context, so the line goes to the
 * root group.
 */
export function LineEditorRedirect() {
  const { type } = useParams();
  const { campaign, mailing, selection } = getDraft();
  const value = LINE_TYPES.some((t) => t.type === type) ? (type as string) : MENU;
  return (
    <Navigate
      to={{ pathname: selectionPaths.builder(campaign, mailing, selection), search: withLine('', value) }}
      replace
    />
  );
}
