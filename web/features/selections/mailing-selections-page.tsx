import { ActionIcon, Anchor, Loader, Switch } from '@mantine/core';
import { IconDownload, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { MailingMessages } from '../../../common/mailings';
import { type Selection, SelectionMessages } from '../../../common/selections';
import { confirmAction } from '../../components/confirm';
import { CsvDownload } from '../../components/csv-download';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDateTime } from '../../lib/dates';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import {
  deleteSelection,
  getMailing,
  listSelections,
  mailingKey,
  selectionCsvUrl,
  selectionPaths,
  selectionsKey,
  updateSelection,
} from './api';

/**
 * /campaigns/{c}/mailings/{m}/selections: the selections of a mailing, newest first (id, date,
 * recordCount, description); toggle 'Voorgedefinieerde query', CSV, edit for a mailing in Concept
 * only (spec 001 §2), and delete there or, for a selection that holds no addresses, in any state.
 */
export function MailingSelectionsPage() {
  const { campaignId = '', mailingId = '' } = useParams();
  const client = useQueryClient();
  const mailing = useQuery({
    queryKey: mailingKey(campaignId, mailingId),
    queryFn: () => getMailing(campaignId, mailingId),
  });
  useFailedQueryAlert(mailing.error, MailingMessages.fetchFailed);
  const selections = useQuery({
    queryKey: selectionsKey(campaignId, mailingId),
    queryFn: () => listSelections(campaignId, mailingId),
  });
  useFailedQueryAlert(selections.error, SelectionMessages.fetchMailingFailed);
  const items = useMemo(
    () => selections.data && [...selections.data].sort((a, b) => b.date.localeCompare(a.date)),
    [selections.data],
  );
  const isDraft = mailing.data?.state === 'draft';
  const refresh = () => client.invalidateQueries({ queryKey: selectionsKey(campaignId, mailingId) });

  const toggle = useMutation({
    mutationFn: (s: Selection) =>
      updateSelection(campaignId, mailingId, s._id, { preDefined: !s.preDefined }),
    // spec 001 §8: a failed predefined toggle is only logged.
    onError: (err) => console.error(err),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (s: Selection) => deleteSelection(campaignId, mailingId, s._id),
    onSuccess: () => {
      showSuccess(SelectionMessages.deleted);
      void client.invalidateQueries({ queryKey: mailingKey(campaignId, mailingId) });
    },
    onError: (err) => showDanger(SelectionMessages.deleteFailed, err),
    onSettled: refresh,
  });

  // A toggled selection until the list shows its new state: the mutation waits for onSettled's
  // read of the list again.
  const isToggling = (s: Selection) => toggle.isPending && toggle.variables?._id === s._id;

  return (
    <>
      <PageTitle>Selecties van {mailing.data?.name ?? mailingId}</PageTitle>
      <ListView
        items={items}
        rowKey={(s) => s._id}
        emptyMessage="Deze verzending heeft nog geen selecties."
        columns={[
          { header: 'Id', render: (s) => s._id },
          { header: 'Datum', render: (s) => formatDateTime(s.date) },
          { header: 'Aantal e-mails', render: (s) => s.recordCount.toLocaleString('nl-NL') },
          { header: 'Omschrijving', render: (s) => s.description },
          {
            header: 'Voorgedefinieerde query',
            render: (s) => (
              // The switch turns once the list is read again: till then its thumb spins.
              <Switch
                aria-label={`Voorgedefinieerde query ${s._id}`}
                checked={s.preDefined}
                disabled={isToggling(s)}
                thumbIcon={isToggling(s) ? <Loader size={10} aria-label="Bezig met opslaan" /> : undefined}
                onChange={() => toggle.mutate(s)}
              />
            ),
          },
        ]}
        actions={(s) => (
          <>
            <CsvDownload
              href={selectionCsvUrl(campaignId, mailingId, s._id)}
              label={`Download CSV van ${s._id}`}
              icon={<IconDownload size={18} />}
            />
            {isDraft && (
              <ActionIcon
                variant="subtle"
                component={Link}
                to={selectionPaths.builder(campaignId, mailingId, s._id)}
                aria-label={`Bewerk selectie ${s._id}`}
              >
                <IconPencil size={18} />
              </ActionIcon>
            )}
            {(isDraft || s.recordCount === 0) && (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Verwijder selectie ${s._id}`}
                loading={remove.isPending && remove.variables?._id === s._id}
                onClick={() =>
                  confirmAction({
                    title: 'Selectie verwijderen?',
                    message: `Weet je zeker dat je selectie ${s._id} wilt verwijderen?`,
                    onConfirm: () => remove.mutate(s),
                  })
                }
              >
                <IconTrash size={18} />
              </ActionIcon>
            )}
          </>
        )}
      />
      <Anchor
        component={Link}
        to={`/campaigns/${encodeURIComponent(campaignId)}/mailings`}
        mt="md"
        display="block"
      >
        Terug naar de verzendingen
      </Anchor>
    </>
  );
}
