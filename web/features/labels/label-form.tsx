import { Paper, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { LABEL_MAX_LENGTH, LabelCreateSchema, LabelMessages } from '../../../common/labels';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { createLabel, labelsKey } from './api';

/** /types/new: one field, the label name (trimmed, not empty). */
export function LabelFormPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useForm({
    mode: 'controlled',
    initialValues: { type: '' },
    validate: schemaResolver(LabelCreateSchema, { sync: true }),
  });
  const save = useMutation({
    mutationFn: (type: string) => createLabel(type.trim()),
    onSuccess: () => {
      showSuccess(LabelMessages.created);
      void client.invalidateQueries({ queryKey: labelsKey });
      navigate('/types');
    },
    onError: (err) => showDanger(LabelMessages.saveFailed, err),
  });

  return (
    <>
      <PageTitle>Nieuw label</PageTitle>
      <Paper withBorder p="md" maw={520}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values.type),
            (errors) =>
              showDanger(LabelMessages.saveFailed, Object.values(errors).filter(Boolean).join('\n')),
          )}
          noValidate
        >
          <Stack>
            <TextInput
              label="Label"
              withAsterisk
              maxLength={LABEL_MAX_LENGTH}
              data-autofocus
              {...form.getInputProps('type')}
            />
            <FormActions backTo="/types" isSaving={save.isPending} />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
