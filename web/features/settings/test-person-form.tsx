import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { DEFAULT_GENDER } from '../../../common/constants';
import { GENDER_OPTIONS, type Gender } from '../../../common/person';
import { SettingsMessages, TestPersonSchema } from '../../../common/settings';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
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
  useEffect(() => {
    if (person.error) showDanger(SettingsMessages.testPersonFetchFailed, person.error);
  }, [person.error]);

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
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput label="Voornaam" {...form.getInputProps('firstName')} />
                <TextInput label="Tussenvoegsel" {...form.getInputProps('preposition')} />
                <TextInput label="Achternaam" {...form.getInputProps('lastName')} />
              </SimpleGrid>
              <Select
                label="Geslacht"
                data={GENDER_OPTIONS}
                allowDeselect={false}
                {...form.getInputProps('gender')}
              />
              <TextInput label="E-mailadres" type="email" withAsterisk {...form.getInputProps('email')} />
              <Group>
                <Button type="submit" loading={save.isPending}>
                  Sla op
                </Button>
                <Button variant="default" component={Link} to="/settings">
                  Terug
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Paper>
    </>
  );
}
