import { Paper, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DEFAULT_GENDER } from '../../../common/constants';
import type { Gender } from '../../../common/person';
import { SettingsMessages, TestPersonSchema } from '../../../common/settings';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { GenderSelect, PersonNameFields } from '../../components/person-fields';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { getTestPerson, saveTestPerson, testPersonKey } from './api';

interface Values {
  firstName: string;
  preposition: string;
  lastName: string;
  gender: Gender;
  email: string;
}

/** /settings/testperson: the global test person of every test list, loaded from the server first. */
export function TestPersonPage() {
  const client = useQueryClient();
  const person = useQuery({ queryKey: testPersonKey, queryFn: getTestPerson });
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { firstName: '', preposition: '', lastName: '', gender: DEFAULT_GENDER, email: '' },
    validate: schemaResolver(TestPersonSchema, { sync: true }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (person.data) form.setValues(person.data);
  }, [person.data]);
  useFailedQueryAlert(person.error, SettingsMessages.testPersonFetchFailed);

  const save = useMutation({
    mutationFn: saveTestPerson,
    onSuccess: (saved) => {
      client.setQueryData(testPersonKey, saved);
      showSuccess(SettingsMessages.savedTitle, SettingsMessages.saved);
    },
    onError: (err) => showDanger(SettingsMessages.saveFailed, err),
  });

  return (
    <>
      <PageTitle>Testpersoon</PageTitle>
      <Paper withBorder p="md" maw={640}>
        {!person.data ? (
          <Text c={person.error ? 'red' : 'dimmed'}>
            {person.error ? person.error.message : 'Loading...'}
          </Text>
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
              <PersonNameFields form={form} />
              <GenderSelect form={form} />
              <TextInput label="E-mailadres" type="email" withAsterisk {...form.getInputProps('email')} />
              <FormActions backTo="/settings" isSaving={save.isPending} saveLabel="Sla op" />
            </Stack>
          </form>
        )}
      </Paper>
    </>
  );
}
