import { Anchor, Button, Group, Loader, Paper, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconUserEdit } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import {
  type SettingsForm,
  SettingsFormSchema,
  SettingsMessages,
  toMinMailings,
  toRetentionDays,
} from '../../../common/settings';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { useIsAdmin } from '../users/no-access';
import { getSettings, saveSettings, settingsKey } from './api';
import { IssuerCard } from './issuer-form';

/**
 * /settings 'Instellingen': 'Minimale verzendingen', 'Standaard Solar ID', 'Bewaartermijn (dagen)'
 * (changed by administrators only) and a link to the test person; below it the card of the
 * issuer's details of statements (IssuerCard).
 */
export function SettingsPage() {
  const client = useQueryClient();
  const isAdmin = useIsAdmin();
  const settings = useQuery({ queryKey: settingsKey, queryFn: getSettings });
  const form = useForm<SettingsForm>({
    mode: 'controlled',
    initialValues: { minMailings: '', solarId: '', retentionDays: '' },
    validate: schemaResolver(SettingsFormSchema, { sync: true }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (settings.data) {
      form.setValues({
        minMailings: String(settings.data.minMailings),
        solarId: settings.data.solarId,
        retentionDays: String(settings.data.retentionDays),
      });
      form.resetDirty();
    }
  }, [settings.data]);
  useFailedQueryAlert(settings.error, SettingsMessages.fetchFailed);

  const save = useMutation({
    mutationFn: (values: SettingsForm) =>
      saveSettings({
        minMailings: toMinMailings(values.minMailings),
        solarId: values.solarId,
        // Other staff keep the period as it is (only an administrator may change it).
        ...(isAdmin ? { retentionDays: toRetentionDays(values.retentionDays) } : {}),
      }),
    onSuccess: (saved) => {
      client.setQueryData(settingsKey, saved);
      showSuccess(SettingsMessages.savedTitle, SettingsMessages.saved);
    },
    onError: (err) => showDanger(SettingsMessages.saveFailed, err),
  });

  return (
    <>
      <PageTitle>Instellingen</PageTitle>
      <Paper withBorder p="md" maw={520}>
        {settings.isPending ? (
          <Loader />
        ) : (
          <form
            onSubmit={form.onSubmit(
              (values) => save.mutate(values),
              (errors) =>
                showDanger(SettingsMessages.saveFailed, Object.values(errors).filter(Boolean).join('\n')),
            )}
            noValidate
          >
            <Stack>
              <Anchor component={Link} to="/settings/testperson">
                <Group gap={6}>
                  <IconUserEdit size={18} />
                  Bewerk testpersoon
                </Group>
              </Anchor>
              <TextInput
                label="Minimale verzendingen"
                description="Aantal verzendingen zonder opening waarna een adres als inactief telt."
                inputMode="numeric"
                {...form.getInputProps('minMailings')}
              />
              <TextInput label="Standaard Solar ID" {...form.getInputProps('solarId')} />
              <TextInput
                label="Bewaartermijn (dagen)"
                description="Zo lang blijven het auditlog en de overgeslagen regels van imports bewaard (30 tot en met 3650 dagen)."
                inputMode="numeric"
                disabled={!isAdmin}
                {...form.getInputProps('retentionDays')}
              />
              <Group>
                <Button type="submit" loading={save.isPending} disabled={Boolean(settings.error)}>
                  Sla op
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Paper>
      <IssuerCard />
    </>
  );
}
