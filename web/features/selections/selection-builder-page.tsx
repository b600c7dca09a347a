import { Alert, Button, Group, Loader, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { businessDay, defaultPressureDate } from '../../../common/pressure-date';
import { QueryMessages } from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import { confirmAction } from '../../components/confirm';
import { PageTitle } from '../../components/page-title';
import { formatCount } from '../../lib/numbers';
import { CountStatus } from '../builder/count-status';
import { useLiveCount } from '../builder/use-live-count';
import { TaskProgress } from '../tasks/task-progress';
import { builderMailingsKey, selectionPaths } from './api';
import { BuilderPickers } from './builder-pickers';
import {
  allocatableTable,
  areResultsCurrent,
  editSelection,
  newDraft,
  type SaveState,
  setDraft,
  useDraft,
} from './builder-store';
import { LineEditorDrawer } from './line-editor-drawer';
import { QueryEditor } from './query-editor';
import { ResultsPanel } from './results-panel';
import { allocateTable, backgroundSave, canSave, saveSelection } from './save-flow';
import { SelectionSettings } from './selection-settings';
import { useBuilderData } from './use-builder-data';

/** spec 001 §4: how each save state is shown. */
export const SAVE_STATE_TEXT: Record<SaveState, string> = {
  NONE: '',
  SAVING: 'Opslaan...',
  PERFORMING_QUERY: 'Query uitvoeren...',
  DONE: 'Klaar',
  SAVED: 'Opgeslagen',
  NOT_SAVED: SelectionMessages.saveFailed,
};

// spec 001 §9: the background save waits between 500 and about 1250 ms after the last change.
const BACKGROUND_SAVE_DELAY_MS = 750;

/**
 * /selection-builder/{campaign?}/{mailing?}/{selection?} 'Doelgroep selecteren': pickers, the
 * query editor, the settings, 'Nieuwe query' and 'Maak aan' / 'Bewaar' with the save flow of
 * spec 001 §4, and the results under 'Resultaten' and 'Query'.
 */
export function SelectionBuilderPage() {
  const params = useParams();
  const c = params.campaign ?? null;
  const m = params.mailing ?? null;
  const s = params.selection ?? null;
  const navigate = useNavigate();
  const client = useQueryClient();
  const draft = useDraft();

  const {
    daysText,
    setDaysText,
    daysError,
    campaignOptions,
    isLoadingCampaigns,
    mailings,
    mailing,
    isLoaded,
  } = useBuilderData(c, m, s, draft);

  const isDraftMailing = mailing?.state === 'draft';
  const isBusy = draft.saveState === 'SAVING' || draft.saveState === 'PERFORMING_QUERY';
  const isWaitingForLoad = Boolean(s) && !isLoaded;
  useEffect(() => {
    if (!isDraftMailing || isWaitingForLoad) return;
    if (!draft.selection || draft.recordCount > 0 || draft.revision === draft.savedRevision) return;
    const timer = setTimeout(() => void backgroundSave(), BACKGROUND_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [
    draft.revision,
    draft.savedRevision,
    draft.selection,
    draft.recordCount,
    isDraftMailing,
    isWaitingForLoad,
  ]);

  useLiveCount(draft, !isWaitingForLoad);
  const canSubmit = canSave(draft) && isDraftMailing;
  const handleSubmit = () => void saveSelection();
  const table = allocatableTable(draft);
  const toAllocate = table.reduce((sum, r) => sum + r.new + r.notOpenedOrClicked + r.opens + r.clicks, 0);
  // 'Toewijzen' spins while its save, allocation and count run ('Opslaan' spins for its own save).
  const [isAllocating, setIsAllocating] = useState(false);
  const handleAllocate = () =>
    confirmAction({
      title: 'Adressen toewijzen',
      message: `${formatCount(toAllocate)} ${toAllocate === 1 ? 'adres' : 'adressen'} toewijzen aan ${mailing?.name ?? 'de verzending'}? De selectie wordt eerst opgeslagen.`,
      onConfirm: () => {
        setIsAllocating(true);
        void allocateTable(table, () => {
          if (c) void client.invalidateQueries({ queryKey: builderMailingsKey(c) });
        }).finally(() => setIsAllocating(false));
      },
    });
  const handleNewQuery = () =>
    confirmAction({
      title: 'Nieuwe query',
      message: 'Weet je zeker dat je met een nieuwe, lege query wilt beginnen?',
      // Without a selection in the URL the draft starts anew (see the URL effect above); resetting
      // it here first would load the selection of the old URL again.
      onConfirm: () => {
        if (s) navigate(selectionPaths.builder(c, m));
        else setDraft(() => newDraft(c, m));
      },
    });
  const defaultAge = mailing ? defaultPressureDate(businessDay(mailing.plannedSend)) : null;
  const isStale = isBusy || draft.counting || !areResultsCurrent(draft);

  return (
    <>
      <PageTitle>Doelgroep selecteren</PageTitle>
      <Stack>
        <Paper withBorder p="md">
          <Stack>
            <TextInput
              label="Campagnes van de afgelopen dagen"
              maw={260}
              inputMode="numeric"
              value={daysText}
              onChange={(e) => setDaysText(e.currentTarget.value)}
              error={daysError}
              disabled={isBusy}
            />
            <BuilderPickers
              draft={draft}
              campaigns={campaignOptions}
              mailings={mailings.data}
              isLoadingCampaigns={isLoadingCampaigns}
              isLoadingMailings={mailings.isLoading}
              disabled={isBusy}
            />
            {mailing && !isDraftMailing && (
              <Alert color="yellow">
                Deze verzending is niet meer in Concept: de selectie kan niet worden gewijzigd.
              </Alert>
            )}
            {mailing && (
              <Text size="sm" c="dimmed" data-testid="mailing-count">
                {mailing.recordCount.toLocaleString('nl-NL')} van {mailing.addresses.toLocaleString('nl-NL')}{' '}
                adressen toegewezen aan {mailing.name}
              </Text>
            )}
            <Textarea
              label="Omschrijving"
              autosize
              minRows={1}
              maxLength={2000}
              value={draft.description}
              onChange={(e) => editSelection({ description: e.currentTarget.value })}
              disabled={isBusy || isWaitingForLoad}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            Query
          </Title>
          {isWaitingForLoad ? (
            <Group gap={6} data-testid="selection-loading">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                Selectie laden...
              </Text>
            </Group>
          ) : (
            <QueryEditor query={draft.query} disabled={isBusy} />
          )}
        </Paper>
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            Instellingen
          </Title>
          <SelectionSettings
            settings={draft.settings}
            campaigns={campaignOptions}
            defaultPressureAge={defaultAge}
            disabled={isBusy || isWaitingForLoad}
          />
        </Paper>
        <Group>
          <Button variant="default" onClick={handleNewQuery} disabled={isBusy}>
            Nieuwe query
          </Button>
          <Button onClick={handleSubmit} disabled={!canSubmit || isBusy} loading={isBusy && !isAllocating}>
            {draft.selection ? 'Opslaan' : 'Maak aan'}
          </Button>
          <Button
            variant="light"
            onClick={handleAllocate}
            disabled={!canSubmit || isBusy || toAllocate === 0}
            loading={isAllocating}
            data-testid="allocate"
          >
            Toewijzen{toAllocate > 0 ? ` (${formatCount(toAllocate)})` : ''}
          </Button>
          <Text
            size="sm"
            c={draft.saveState === 'NOT_SAVED' ? 'red' : 'dimmed'}
            data-testid="save-state"
            data-state={draft.saveState}
          >
            {isAllocating && draft.saveState === 'PERFORMING_QUERY'
              ? 'Toewijzen...'
              : SAVE_STATE_TEXT[draft.saveState]}
          </Text>
          {!canSubmit && !isBusy && (
            <Text size="sm" c="dimmed">
              {QueryMessages.submitRequired}
            </Text>
          )}
        </Group>
        {draft.saveState === 'PERFORMING_QUERY' && draft.progress && (
          <div data-testid="save-progress">
            <TaskProgress task={draft.progress} />
          </div>
        )}
        {toAllocate > 0 && !isBusy && isDraftMailing && (
          <Text size="sm" c="dimmed" data-testid="allocate-hint">
            'Toewijzen' wijst de geselecteerde aantallen toe aan de verzending.
          </Text>
        )}
        {draft.campaign && draft.mailing && (
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              Resultaat
            </Title>
            <CountStatus draft={draft} isStale={isStale} />
            <ResultsPanel draft={draft} isStale={isStale} />
          </Paper>
        )}
      </Stack>
      <LineEditorDrawer />
    </>
  );
}
