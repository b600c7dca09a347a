import { Paper, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { InterestTypeCreateSchema, InterestTypeMessages } from '../../../common/interest-types';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { createInterestType, interestTypesKey } from './api';

/** /interest-types/new 'Nieuwe klikinteresse': one name, trimmed, not empty (spec 001 §5). */
export function InterestTypeFormPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '' },
    validate: schemaResolver(InterestTypeCreateSchema, { sync: true }),
  });

  const save = useMutation({
    mutationFn: (name: string) => createInterestType({ name: name.trim() }),
    onSuccess: () => {
      showSuccess(InterestTypeMessages.created);
      void client.invalidateQueries({ queryKey: interestTypesKey });
      navigate('/interest-types');
    },
    onError: (err) => {
      const isInvalid = err instanceof ApiError && err.status === 400;
      if (isInvalid) form.setFieldError('name', err.message);
      showDanger(isInvalid ? InterestTypeMessages.invalidTitle : InterestTypeMessages.saveFailed, err);
    },
  });

  return (
    <>
      <PageTitle>Nieuwe klikinteresse</PageTitle>
      <Paper withBorder p="md" maw={520}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values.name),
            (errors) =>
              showDanger(InterestTypeMessages.invalidTitle, errors.name ? String(errors.name) : undefined),
          )}
          noValidate
        >
          <Stack>
            <TextInput label="Naam:" maxLength={100} {...form.getInputProps('name')} />
            <FormActions backTo="/interest-types" isSaving={save.isPending} saveLabel="Opslaan" />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
