import { Button, Group, Loader, Modal, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CATEGORY_LABELS } from '../../../common/extra-inzet';
import {
  LimitInputSchema,
  type Mailing,
  MailingMessages,
  normalizeLimitInput,
} from '../../../common/mailings';
import { hideAlert, showDanger, showInfo, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { checkPressure, deletePressure, limitMailing, mailingsKey, pressureKey } from './api';

interface MailingModalProps {
  mailing: Mailing | null;
  onClose: () => void;
}

// spec 001 §3: the pressure check's categories (new, none, opened, clicked), named as everywhere.
const PRESSURE_ROWS = [
  ['new', CATEGORY_LABELS.new],
  ['none', CATEGORY_LABELS.notOpenedOrClicked],
  ['opened', CATEGORY_LABELS.opens],
  ['clicked', CATEGORY_LABELS.clicks],
] as const;

/**
 * The warning of a removal from a mailing that has results (one that went back from Aangeboden):
 * the removed addresses' results go with them (docs/decisions.md, Mailings).
 */
function ResultsGoToo({ mailing }: { mailing: Mailing | null }) {
  const r = mailing?.results;
  if (!r || r.opens + r.clicks + r.bounces === 0) return null;
  return (
    <Text size="sm" mt="xs" c="orange.8" data-testid="removal-results-warning">
      {MailingMessages.removesResults}
    </Text>
  );
}

/** 'Controleer maildruk': the draft's addresses another Definitief/Aangeboden mailing of its week holds, and their removal. */
export function PressureModal({ mailing, onClose }: MailingModalProps) {
  const client = useQueryClient();
  const check = useQuery({
    queryKey: ['pressure-check', mailing?._id],
    queryFn: () => checkPressure(mailing!.campaign, mailing!._id),
    enabled: Boolean(mailing),
    gcTime: 0,
  });
  useFailedQueryAlert(check.error, MailingMessages.fetchFailed);
  const remove = useMutation({
    mutationFn: () => deletePressure(mailing!.campaign, mailing!._id),
    onMutate: () => showInfo(MailingMessages.pressureDeleting),
    onSuccess: (res, _v, infoId) => {
      hideAlert(infoId);
      showSuccess(MailingMessages.pressureDeletedTitle, MailingMessages.removed(res.deleted, res.results));
      void client.invalidateQueries({ queryKey: mailingsKey(mailing!.campaign) });
      void client.invalidateQueries({ queryKey: pressureKey });
      onClose();
    },
    onError: (err, _v, infoId) => {
      if (infoId) hideAlert(infoId);
      showDanger(MailingMessages.pressureDeleteFailed, err);
    },
  });
  const counts = check.data;
  const total = counts ? counts.new + counts.none + counts.opened + counts.clicked : 0;
  return (
    <Modal opened={Boolean(mailing)} onClose={onClose} title={`Maildruk van ${mailing?.name ?? ''}`}>
      {!counts ? (
        check.error ? null : (
          <Loader size="sm" />
        )
      ) : (
        <>
          <Text size="sm" mb="xs">
            Adressen die in dezelfde week al een Definitieve of Aangeboden mailing hebben:
          </Text>
          <Table aria-label="Maildruk">
            <Table.Tbody>
              {PRESSURE_ROWS.map(([key, label]) => (
                <Table.Tr key={key}>
                  <Table.Td>{label}</Table.Td>
                  <Table.Td data-testid={`pressure-${key}`}>{counts[key].toLocaleString('nl-NL')}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={600}>Totaal</Table.Td>
                <Table.Td fw={600}>{total.toLocaleString('nl-NL')}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <ResultsGoToo mailing={mailing} />
          <Group mt="md">
            <Button
              color="red"
              disabled={total === 0}
              loading={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Maildruk verwijderen
            </Button>
            <Button variant="default" onClick={onClose}>
              Sluiten
            </Button>
          </Group>
        </>
      )}
    </Modal>
  );
}

/** 'Aantal adressen maximeren': removes addresses until the mailing holds at most the typed number. */
export function LimitModal({ mailing, onClose }: MailingModalProps) {
  const client = useQueryClient();
  const [limit, setLimit] = useState('');
  const [limitError, setLimitError] = useState<string | null>(null);
  const close = () => {
    setLimit('');
    setLimitError(null);
    onClose();
  };
  const run = useMutation({
    mutationFn: (n: number) => limitMailing(mailing!.campaign, mailing!._id, n),
    onMutate: () => showInfo(MailingMessages.limiting),
    onSuccess: (res, _v, infoId) => {
      hideAlert(infoId);
      showSuccess(MailingMessages.limitedTitle, MailingMessages.removed(res.deleted, res.results));
      void client.invalidateQueries({ queryKey: mailingsKey(mailing!.campaign) });
      close();
    },
    onError: (err, _v, infoId) => {
      if (infoId) hideAlert(infoId);
      showDanger(MailingMessages.limitFailed, err);
    },
  });
  return (
    <Modal
      opened={Boolean(mailing)}
      onClose={close}
      title={`Aantal adressen maximeren: ${mailing?.name ?? ''}`}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (limit === '') return;
          const parsed = LimitInputSchema.safeParse({ limit });
          if (parsed.success) run.mutate(parsed.data.limit);
          else setLimitError(MailingMessages.limitInvalid);
        }}
      >
        <Text size="sm" mb="xs">
          De verzending bevat nu {mailing?.recordCount.toLocaleString('nl-NL')} e-mails.
        </Text>
        <TextInput
          label="Maximaal aantal adressen"
          inputMode="numeric"
          value={limit}
          onChange={(e) => {
            setLimit(normalizeLimitInput(e.currentTarget.value));
            setLimitError(null);
          }}
          error={limitError}
          data-autofocus
        />
        <ResultsGoToo mailing={mailing} />
        <Group mt="md">
          <Button type="submit" disabled={limit === ''} loading={run.isPending}>
            Maximeren
          </Button>
          <Button variant="default" onClick={close}>
            Sluiten
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
