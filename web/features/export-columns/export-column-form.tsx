import { Autocomplete, Paper, Select, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  DEFAULT_EXPORT_COLUMN_TYPE,
  EXPORT_COLUMN_TYPE_LABELS,
  EXPORT_COLUMN_TYPES,
  ExportColumnCreateSchema,
  ExportColumnMessages,
  type ExportColumnType,
} from '../../../common/export-columns';
import { GlobalAttributeMessages } from '../../../common/global-attributes';
import { FormActions } from '../../components/form-actions';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { createExportColumn, exportColumnsKey, globalMappingsKey, listGlobalMappings } from './api';

interface Values {
  column: string;
  type: ExportColumnType;
}

/** /csv-columns/new: a column name with suggestions from the global mappings and its type; back to the list on success. */
export function ExportColumnFormPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const mappings = useQuery({ queryKey: globalMappingsKey, queryFn: listGlobalMappings });
  useFailedQueryAlert(mappings.error, GlobalAttributeMessages.fetchFailed);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { column: '', type: DEFAULT_EXPORT_COLUMN_TYPE },
    validate: schemaResolver(ExportColumnCreateSchema, { sync: true }),
  });

  const save = useMutation({
    mutationFn: createExportColumn,
    onSuccess: (column) => {
      showSuccess(ExportColumnMessages.created, column._id);
      void client.invalidateQueries({ queryKey: exportColumnsKey });
      navigate('/csv-columns');
    },
    onError: (err) => showDanger(ExportColumnMessages.errorTitle, err),
  });

  return (
    <>
      <PageTitle>Nieuwe kolom</PageTitle>
      <Paper withBorder p="md" maw={520}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate({ column: values.column.trim(), type: values.type }),
            (errors) =>
              showDanger(ExportColumnMessages.errorTitle, Object.values(errors).filter(Boolean).join('\n')),
          )}
          noValidate
        >
          <Stack>
            {/* Mantine's default filter is the spec's case-insensitive 'contains' (spec 001 §2). */}
            <Autocomplete
              label="Kolom"
              placeholder="Kies of typ een kenmerk"
              withAsterisk
              data={mappings.data ?? []}
              limit={50}
              maxLength={200}
              {...form.getInputProps('column')}
            />
            <Select
              label="Type"
              data={EXPORT_COLUMN_TYPES.map((t) => ({ value: t, label: EXPORT_COLUMN_TYPE_LABELS[t] }))}
              allowDeselect={false}
              {...form.getInputProps('type')}
            />
            <FormActions backTo="/csv-columns" isSaving={save.isPending} saveLabel="Voeg toe" />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
