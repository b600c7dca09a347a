import { Autocomplete, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  type AttributeOption,
  attributeOfText,
  attributeOptions,
  matchesAttribute,
} from '../../../common/global-attributes';
import { lineFieldLabel } from '../../../common/query-description';
import { type FileLeaf, QueryMessages } from '../../../common/query-tree';
import { LINE_BASES, LineMappingsSchema, SelectionMessages } from '../../../common/selections';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { CsvDropzone, countCsvRows, useCsvHeaders, useCsvParseFailedAlert } from '../uploads/csv-dropzone';
import { attributesKey, listAttributes } from './api';
import { noteFileRows, setDraft } from './builder-store';
import { columnsOf, type LineColumn, lineFieldsOf, lineMappingsOf, updateColumn } from './line-file-state';
import { type LineFormProps, LineFormShell } from './line-form-shell';

const BASE_LABELS: Record<(typeof LINE_BASES)[number], string> = {
  id: 'Basis: e-mailadres',
  dataset: 'Basis: bestand',
  datasetDescription: 'Basis: bestandsomschrijving',
  domain: 'Basis: domein',
};
const KIND_OPTIONS = [
  { value: 'none', label: 'Niet gebruiken' },
  { value: 'attribute', label: 'Kenmerk' },
  ...LINE_BASES.map((b) => ({ value: `base:${b}`, label: BASE_LABELS[b] })),
];

/** A new line id, under which the server keeps the file's rows. */
const newLineId = () => `l${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

function ColumnRow(props: {
  column: LineColumn;
  attributes: AttributeOption[];
  onChange: (c: Partial<LineColumn>) => void;
}) {
  const { column } = props;
  const kindValue = column.kind === 'base' ? `base:${column.base}` : column.kind;
  return (
    <Table.Tr data-testid="line-column" data-field={column.field}>
      <Table.Td>
        <Text fw={500}>{column.field || '(leeg)'}</Text>
      </Table.Td>
      <Table.Td>
        <Select
          aria-label={`Koppeling voor ${column.field}`}
          data={KIND_OPTIONS}
          value={kindValue}
          allowDeselect={false}
          onChange={(v) => {
            if (!v) return;
            if (v.startsWith('base:'))
              props.onChange({ kind: 'base', base: v.slice(5) as LineColumn['base'] });
            else props.onChange({ kind: v as LineColumn['kind'] });
          }}
        />
      </Table.Td>
      <Table.Td>
        {column.kind === 'attribute' && (
          <Autocomplete
            aria-label={`Kenmerk voor ${column.field}`}
            data={props.attributes}
            filter={({ options, search, limit }) =>
              (options as AttributeOption[]).filter((o) => matchesAttribute(o, search)).slice(0, limit)
            }
            limit={50}
            value={column.mapped}
            onChange={(mapped) => props.onChange({ mapped })}
          />
        )}
        {column.kind === 'base' && (
          <Group gap="xs" wrap="nowrap">
            <TextInput
              aria-label={`Naam voor ${column.field}`}
              value={column.generated}
              onChange={(e) => props.onChange({ generated: e.currentTarget.value })}
            />
            {(column.base === 'dataset' || column.base === 'datasetDescription') && (
              <TextInput
                aria-label={`Partner voor ${column.field}`}
                placeholder="Partner (optioneel)"
                value={column.basePartner}
                onChange={(e) => props.onChange({ basePartner: e.currentTarget.value })}
              />
            )}
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * 'Bestandsmatch' (intersect) / 'Bestand uitsluiten' (complement): a .csv file, its header row
 * read in the browser, and per column a mapped attribute or a base entry with its gen_ name
 * (spec 001 §3, §5). The file is uploaded by the save, after the selection is stored.
 */
export function FileLineForm(props: LineFormProps & { kind: 'intersect' | 'complement' }) {
  const existing: FileLeaf | null =
    props.current && 'intersect' in props.current
      ? props.current.intersect
      : props.current && 'complement' in props.current
        ? props.current.complement
        : null;
  const [file, setFile] = useState<File | null>(null);
  const headers = useCsvHeaders(file);
  const [columns, setColumns] = useState<LineColumn[]>([]);
  useEffect(() => setColumns(columnsOf(headers ?? [])), [headers]);
  useCsvParseFailedAlert(file, headers);
  const attributes = useQuery({ queryKey: attributesKey, queryFn: listAttributes });
  useFailedQueryAlert(attributes.error, SelectionMessages.fetchAttributesFailed);
  // The attribute fields show the Dutch labels; the line maps onto the attributes' names.
  const options = attributeOptions(attributes.data ?? []);

  const build = () => {
    if (!file) {
      if (existing) return { node: { [props.kind]: existing } as never };
      return { errors: [QueryMessages.fileRequired] };
    }
    const named = columns.map((c) =>
      c.kind === 'attribute' ? { ...c, mapped: attributeOfText(c.mapped, options) } : c,
    );
    const mappings = lineMappingsOf(named);
    const parsed = LineMappingsSchema.safeParse(mappings);
    if (!parsed.success) return { errors: [...new Set(parsed.error.issues.map((i) => i.message))] };
    const id = existing?.id ?? newLineId();
    setDraft((d) => ({ ...d, files: { ...d.files, [id]: { file, mappings: parsed.data } } }));
    void countCsvRows(file).then((rows) => noteFileRows(id, rows));
    return { node: { [props.kind]: { id, name: file.name, fields: lineFieldsOf(named) } } as never };
  };

  return (
    <LineFormShell {...props} build={build}>
      <Stack>
        {existing && !file && (
          <Text size="sm">
            Huidig bestand: {existing.name ?? existing.id} (op{' '}
            {[...new Set(existing.fields.map(lineFieldLabel))].join(', ')}). Kies een ander bestand om het te
            vervangen.
          </Text>
        )}
        <CsvDropzone file={file} onFile={setFile} />
        {file && headers && headers.length > 0 && (
          <Table verticalSpacing={4} aria-label="Kolommen koppelen">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Kolom</Table.Th>
                <Table.Th>Koppeling</Table.Th>
                <Table.Th>Kenmerk of naam</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {columns.map((column, i) => (
                <ColumnRow
                  // biome-ignore lint/suspicious/noArrayIndexKey: a header may repeat a name; its place tells them apart.
                  key={i}
                  column={column}
                  attributes={options}
                  onChange={(change) => setColumns((cs) => updateColumn(cs, i, change))}
                />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </LineFormShell>
  );
}
