import {
  Button,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { COUNTRY_OPTIONS } from '../../../common/countries';
import { type IssuerInput, IssuerLabels, IssuerMessages, IssuerSchema } from '../../../common/issuer';
import { SettingsMessages } from '../../../common/settings';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { useIsAdmin } from '../users/no-access';
import { getIssuer, issuerKey, saveIssuer } from './api';

const EMPTY: Required<IssuerInput> = {
  name: '',
  address: '',
  postalCode: '',
  city: '',
  country: '',
  vatNumber: '',
  cocNumber: '',
};

/**
 * The card 'Gegevens afnemer (afrekeningen)' of the settings screen: the broker's company details
 * every statement carries as its issuer (a self-billed invoice). Administrators edit them; other
 * staff see them read-only.
 */
export function IssuerCard() {
  const client = useQueryClient();
  const isAdmin = useIsAdmin();
  const issuer = useQuery({ queryKey: issuerKey, queryFn: getIssuer });
  const form = useForm<Required<IssuerInput>>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaResolver(IssuerSchema, { sync: true }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (issuer.data) {
      form.setValues(issuer.data);
      form.resetDirty();
    }
  }, [issuer.data]);
  useFailedQueryAlert(issuer.error, IssuerMessages.fetchFailed);

  const save = useMutation({
    mutationFn: saveIssuer,
    onSuccess: (saved) => {
      client.setQueryData(issuerKey, saved);
      showSuccess(SettingsMessages.savedTitle, IssuerMessages.saved);
    },
    onError: (err) => showDanger(SettingsMessages.saveFailed, err),
  });

  return (
    <Paper withBorder p="md" maw={720} mt="md" component="section" aria-labelledby="issuer-title">
      <Title order={3} size="h4" id="issuer-title" mb={4}>
        {IssuerMessages.title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Een afrekening is een factuur die de afnemer uitreikt namens de partner; deze gegevens staan erop als
        uitreiker. Een uitgereikte afrekening houdt de gegevens van het moment van uitreiken.
        {isAdmin ? '' : ' Alleen een beheerder kan ze wijzigen.'}
      </Text>
      {issuer.isPending ? (
        <Loader size="sm" />
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
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={IssuerLabels.name} disabled={!isAdmin} {...form.getInputProps('name')} />
              <TextInput
                label={IssuerLabels.address}
                disabled={!isAdmin}
                {...form.getInputProps('address')}
              />
              <TextInput
                label={IssuerLabels.postalCode}
                disabled={!isAdmin}
                {...form.getInputProps('postalCode')}
              />
              <TextInput label={IssuerLabels.city} disabled={!isAdmin} {...form.getInputProps('city')} />
              <Select
                label={IssuerLabels.country}
                data={COUNTRY_OPTIONS}
                searchable
                clearable
                nothingFoundMessage="Geen land gevonden"
                disabled={!isAdmin}
                {...form.getInputProps('country')}
                onChange={(value) => form.setFieldValue('country', value ?? '')}
              />
              <TextInput
                label={IssuerLabels.vatNumber}
                description="Bijvoorbeeld NL123456789B01"
                disabled={!isAdmin}
                {...form.getInputProps('vatNumber')}
              />
              <TextInput
                label={IssuerLabels.cocNumber}
                description="8 cijfers"
                inputMode="numeric"
                disabled={!isAdmin}
                {...form.getInputProps('cocNumber')}
              />
            </SimpleGrid>
            {isAdmin && (
              <Group>
                <Button type="submit" loading={save.isPending} disabled={Boolean(issuer.error)}>
                  Sla gegevens afnemer op
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      )}
    </Paper>
  );
}
