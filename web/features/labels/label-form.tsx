import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { LABEL_MAX_LENGTH, LabelCreateSchema, LabelMessages } from '../../../common/labels';
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
            <Group>
              <Button type="submit" loading={save.isPending}>
                Opslaan
              </Button>
              <Button variant="default" component={Link} to="/types">
                Terug
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
