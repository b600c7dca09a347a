import { Alert, Badge, Button, Center, Drawer, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconFileTypePdf } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { IssuerLabels, IssuerMessages, issuerBlock } from '../../../common/issuer';
import {
  formatMonth,
  type StatementDetail,
  StatementLabels,
  StatementMessages,
} from '../../../common/statements';
import { confirmAction } from '../../components/confirm';
import { CsvDownload } from '../../components/csv-download';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDate } from '../../lib/dates';
import { ApiError } from '../../lib/http';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import {
  getIssued,
  getProposed,
  issuedCsvUrl,
  issuedKey,
  issuedPdfUrl,
  issueStatement,
  proposedCsvUrl,
  proposedKey,
  statementsKey,
} from './api';
import { StatementLines } from './statement-lines';
import {
  issueQuestion,
  missingCommissionText,
  type OpenStatement,
  refOf,
  statementName,
  stateText,
} from './statement-text';

/**
 * The statement the screen's URL opens, in a drawer: its partner, period, state, lines and totals;
 * a proposal can be issued (after a confirmation), an issued one downloaded as PDF and CSV.
 * `onIssued` gets the id of a statement just issued.
 */
export function StatementDrawer({
  open,
  onClose,
  onIssued,
}: {
  open: OpenStatement;
  onClose: () => void;
  onIssued: (id: number) => void;
}) {
  const client = useQueryClient();
  // The drawer keeps showing the last statement while it slides shut.
  const last = useRef<OpenStatement>(open);
  if (open) last.current = open;
  const shown = last.current;
  const detail = useQuery({
    queryKey:
      shown?.kind === 'issued'
        ? issuedKey(shown.id)
        : shown
          ? proposedKey(shown.ref)
          : ['statements', 'none'],
    queryFn: () => (shown?.kind === 'issued' ? getIssued(shown.id) : shown ? getProposed(shown.ref) : null),
    enabled: shown !== null,
  });
  useFailedQueryAlert(detail.error, StatementMessages.fetchFailed);
  const issue = useMutation({
    mutationFn: (s: StatementDetail) => issueStatement(refOf(s)),
    onSuccess: (issued) => {
      showSuccess(StatementMessages.issued(issued.number ?? ''));
      client.setQueryData(issuedKey(issued.id ?? 0), issued);
      void client.invalidateQueries({ queryKey: statementsKey(issued.month) });
      if (issued.id !== null) onIssued(issued.id);
    },
    onError: (err, s) => {
      showDanger(StatementMessages.issueFailed, err);
      // Issued meanwhile (another screen) or changed: the list and the proposal show what holds now.
      void client.invalidateQueries({ queryKey: statementsKey(s.month) });
    },
  });
  const s = detail.data ?? null;
  const handleIssue = (statement: StatementDetail) =>
    confirmAction({
      title: 'Afrekening uitreiken?',
      message: issueQuestion(statement),
      onConfirm: () => issue.mutate(statement),
    });

  return (
    <Drawer
      opened={open !== null}
      onClose={onClose}
      position="right"
      // As wide as the lines need on a desktop, the whole width on a phone.
      size="clamp(0px, 100%, 68rem)"
      title={s ? `Afrekening ${statementName(s)}, ${formatMonth(s.month)}` : 'Afrekening'}
    >
      {!s ? (
        detail.error ? (
          <Alert color="red">
            {detail.error instanceof ApiError ? detail.error.message : StatementMessages.fetchFailed}
          </Alert>
        ) : (
          <Center py="xl" data-testid="statement-loading">
            <Loader size="sm" />
          </Center>
        )
      ) : (
        <Stack>
          <Group justify="space-between" align="flex-start">
            <Badge
              size="lg"
              color={s.state === 'issued' ? 'green' : 'blue'}
              variant="light"
              data-testid="statement-state"
            >
              {stateText(s)}
            </Badge>
            <Group gap="xs">
              {s.state === 'issued' && s.id !== null ? (
                <>
                  <Button
                    component="a"
                    href={issuedPdfUrl(s.id)}
                    download
                    variant="default"
                    leftSection={<IconFileTypePdf size={16} />}
                  >
                    PDF
                  </Button>
                  <CsvDownload href={issuedCsvUrl(s.id)} label={`CSV van ${s.number ?? 'de afrekening'}`}>
                    CSV
                  </CsvDownload>
                </>
              ) : (
                <>
                  <CsvDownload href={proposedCsvUrl(refOf(s))} label="Concept (CSV)" />
                  <Button
                    onClick={() => handleIssue(s)}
                    loading={issue.isPending}
                    disabled={s.lines.length === 0}
                  >
                    Uitreiken
                  </Button>
                </>
              )}
            </Group>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <Fact label={StatementLabels.partner} value={s.partner.name} />
            <Fact label={StatementLabels.period} value={formatMonth(s.month)} />
            {s.datasetName && <Fact label={StatementLabels.dataset} value={s.datasetName} />}
            {s.number && <Fact label={StatementLabels.number} value={s.number} />}
            {s.issuedAt && <Fact label={StatementLabels.date} value={formatDate(s.issuedAt)} />}
            <Fact
              label={StatementLabels.vat}
              value={
                s.reverseCharge
                  ? StatementMessages.reverseCharge
                  : s.partner.vatPercentage === null
                    ? 'Geen btw'
                    : `${s.partner.vatPercentage.toLocaleString('nl-NL')} %`
              }
            />
            {s.partner.vatNumber && <Fact label={StatementLabels.vatNumber} value={s.partner.vatNumber} />}
            {s.partner.vatCode && <Fact label={StatementLabels.vatCode} value={s.partner.vatCode} />}
            {s.partner.iban && <Fact label={StatementLabels.iban} value={s.partner.iban} />}
            <Fact
              label={`${IssuerLabels.issuer} (uitgereikt door)`}
              value={issuerBlock(s.issuer, StatementMessages.brokerMissing).join(', ')}
              testId="statement-issuer"
            />
          </SimpleGrid>
          {missingCommissionText(s.missingCommission) && (
            <Alert
              color="orange"
              icon={<IconAlertTriangle size={18} />}
              title={StatementMessages.noCommission}
            >
              {missingCommissionText(s.missingCommission)}
            </Alert>
          )}
          {s.state === 'proposed' && s.reverseCharge && s.issuer && !s.issuer.vatNumber && (
            <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="issuer-vat-missing">
              {IssuerMessages.reverseChargeVatMissing}
            </Alert>
          )}
          <StatementLines statement={s} />
        </Stack>
      )}
    </Drawer>
  );
}

/** One labelled fact of the statement's head. */
function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}
