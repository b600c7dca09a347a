import { Loader, Paper, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { DEFAULT_GENDER } from '../../../common/constants';
import { type TestPersonInput, TestPersonInputSchema, TestPersonMessages } from '../../../common/datasets';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { GenderSelect, PersonNameFields } from '../../components/person-fields';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { createTestPerson, datasetKey, getTestPerson, testPersonKey, updateTestPerson } from './api';
import { datasetPaths, useDataset } from './use-dataset';

const EMPTY = { firstName: '', preposition: '', lastName: '', gender: DEFAULT_GENDER, email: '' };

/** .../testpersons/new and .../testpersons/{personId}/edit: name, gender (default man) and a required e-mail. */
export function TestPersonFormPage() {
  const { partnerId, datasetId, personId } = useParams() as {
    partnerId: string;
    datasetId: string;
    personId?: string;
  };
  const isEdit = Boolean(personId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const dataset = useDataset(partnerId, datasetId);
  const listPath = datasetPaths(partnerId, datasetId).testPersons;
  const person = useQuery({
    queryKey: testPersonKey(partnerId, datasetId, personId ?? ''),
    queryFn: () => getTestPerson(partnerId, datasetId, personId!),
    enabled: isEdit,
    retry: false,
  });
  const form = useForm({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaResolver(TestPersonInputSchema, { sync: true }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is stable; only newly loaded data resets the fields.
  useEffect(() => {
    if (person.data) {
      const { firstName, preposition, lastName, gender, email } = person.data;
      form.setValues({ firstName, preposition, lastName, gender, email });
    }
  }, [person.data]);
  useFailedQueryAlert(person.error, TestPersonMessages.fetchFailed, listPath);

  const save = useMutation({
    mutationFn: (body: TestPersonInput) =>
      isEdit
        ? updateTestPerson(partnerId, datasetId, personId!, body)
        : createTestPerson(partnerId, datasetId, body),
    onSuccess: () => {
      showSuccess(isEdit ? TestPersonMessages.saved : TestPersonMessages.created);
      void client.invalidateQueries({ queryKey: datasetKey(partnerId, datasetId) });
      navigate(listPath);
    },
    onError: (err) => showDanger(TestPersonMessages.saveFailed, err),
  });

  if (isEdit && person.isPending) return <Loader />;

  return (
    <>
      <PageTitle>
        {isEdit ? 'Testpersoon bewerken' : 'Nieuwe testpersoon'} voor {dataset.data?.name ?? 'bestand'}
      </PageTitle>
      <Paper withBorder p="md" maw={720}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values as TestPersonInput),
            (errors) =>
              showDanger(TestPersonMessages.saveFailed, Object.values(errors).filter(Boolean).join('\n')),
          )}
          noValidate
        >
          <Stack>
            <PersonNameFields form={form} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <GenderSelect form={form} />
              <TextInput
                label="E-mailadres"
                withAsterisk
                type="email"
                maxLength={320}
                {...form.getInputProps('email')}
              />
            </SimpleGrid>
            <FormActions backTo={listPath} isSaving={save.isPending} />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
