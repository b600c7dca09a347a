import { Anchor, Card, Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import type { QueryNode } from '../../../common/query-tree';
import { PageTitle } from '../../components/page-title';
import { selectionPaths } from './api';
import { AttributeLineForm } from './attribute-line-form';
import { editQuery, getDraft, useDraft } from './builder-store';
import { FileLineForm } from './file-line-form';
import type { LineFormProps } from './line-form-shell';
import { nodeAt } from './query-editor-state';
import { ContainsLineForm, InterestLineForm, LabelLineForm } from './simple-line-forms';

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
 * /selection-builder/add-line/{type?}: without a type the menu of line types; with one, its form.
 * Without an edit context (the builder sends one) it goes to /selection-builder.
 */
export function LineEditorPage() {
  const { type } = useParams();
  const navigate = useNavigate();
  const draft = useDraft();
  const context = draft.editContext;
  if (!context) return <Navigate to="/selection-builder" replace />;
  const backTo = selectionPaths.builder(draft.campaign, draft.mailing, draft.selection);
  const current = context.mode === 'edit' ? (nodeAt(draft.query, context.path) ?? null) : null;
  const lineType = LINE_TYPES.find((t) => t.type === type);

  // The builder clears the edit context when it shows again (clearing it here would redirect first).
  const close = () => navigate(backTo);
  const handleSubmit = (node: QueryNode) => {
    const { editContext } = getDraft();
    if (editContext?.mode === 'edit') editQuery({ type: 'replace', path: editContext.path, node });
    else if (editContext) editQuery({ type: 'addLine', path: editContext.path, node });
    close();
  };

  if (!lineType) {
    return (
      <>
        <PageTitle>Regel toevoegen</PageTitle>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {LINE_TYPES.map((t) => (
            <Card
              key={t.type}
              withBorder
              component={Link}
              to={selectionPaths.addLine(t.type)}
              aria-label={t.label}
            >
              <Text fw={600}>{t.label}</Text>
              <Text size="sm" c="dimmed">
                {t.help}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
        <Text mt="md">
          <Anchor component={Link} to={backTo}>
            Terug naar de selectie
          </Anchor>
        </Text>
      </>
    );
  }
  return (
    <>
      <PageTitle>{lineType.label}</PageTitle>
      <Paper withBorder p="md" maw={900}>
        {formFor(lineType.type, { current, onSubmit: handleSubmit, onCancel: close })}
      </Paper>
    </>
  );
}
