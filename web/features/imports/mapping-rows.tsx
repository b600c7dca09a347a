import { ActionIcon, Anchor, Autocomplete, Checkbox, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { memo } from 'react';
import { Link } from 'react-router';
import { type ColumnRow, type ExtraRow, trimProblem } from '../../../common/mapping-editor';

type Errors = Record<string, string> | undefined;

interface RowProps<R> {
  row: R;
  /** How the row is named to assistive technology: the file column, numbered when it has several rows. */
  label: string;
  suggestions: string[];
  errors: Errors;
  onChange: (id: string, patch: Partial<R>) => void;
  onMapped: (id: string, mapped: string) => void;
  onBlurMapped: (id: string) => void;
  onRemove: (id: string) => void;
}

const BOOL_OPTIONS = [
  ['encrypted', 'Versleuteld'],
  ['lower', 'Kleine letters'],
  ['strip', 'Spaties verwijderen'],
  ['emailDomain', 'Alleen domein'],
] as const;

/** The table head of the column rows. */
export function ColumnHead() {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>Kolom in bestand</Table.Th>
        <Table.Th>Kenmerk</Table.Th>
        {BOOL_OPTIONS.map(([key, title]) => (
          <Table.Th key={key}>{title}</Table.Th>
        ))}
        <Table.Th>Trim</Table.Th>
        <Table.Th>Datumformaat</Table.Th>
        <Table.Th>Uitsluiten</Table.Th>
        <Table.Th>Waarden</Table.Th>
        <Table.Th />
      </Table.Tr>
    </Table.Thead>
  );
}

/** One file column: its attribute (free text with suggestions), the options, and a link to its values. */
export const ColumnRowView = memo(function ColumnRowView(
  props: RowProps<ColumnRow> & {
    valuesHref: string | null;
    /** Opens the values (saving unsaved changes first); the link itself is for a new tab. */
    onOpenValues: (href: string) => void;
  },
) {
  const { row, label, errors } = props;
  const mapped = row.mapped.trim() !== '';
  const set = (patch: Partial<ColumnRow>) => props.onChange(row.id, patch);
  return (
    <Table.Tr data-testid="mapping-row" data-field={row.field} data-mapped={row.mapped}>
      <Table.Td>
        <Text fw={500} style={{ wordBreak: 'break-word' }}>
          {row.field}
        </Text>
      </Table.Td>
      <Table.Td miw={180}>
        <Autocomplete
          aria-label={`Kenmerk voor ${label}`}
          placeholder="Niet gemapt"
          data={props.suggestions}
          limit={100}
          maxLength={100}
          value={row.mapped}
          onChange={(value) => props.onMapped(row.id, value)}
          onBlur={() => props.onBlurMapped(row.id)}
          error={errors?.mapped}
        />
      </Table.Td>
      {BOOL_OPTIONS.map(([key, title]) => (
        <Table.Td key={key}>
          <Checkbox
            aria-label={`${title} ${label}`}
            checked={row[key]}
            disabled={!mapped}
            onChange={(e) => set({ [key]: e.currentTarget.checked })}
          />
        </Table.Td>
      ))}
      <Table.Td w={90}>
        {/* Text, read by parseInteger when saved: '1,5' or '-3' is refused with a message, never changed. */}
        <TextInput
          aria-label={`Trim ${label}`}
          value={row.trim === null ? '' : String(row.trim)}
          onChange={(e) => set({ trim: e.currentTarget.value })}
          inputMode="numeric"
          maxLength={10}
          disabled={!mapped}
          error={(mapped ? trimProblem(row.trim) : null) ?? errors?.trim}
        />
      </Table.Td>
      <Table.Td miw={140}>
        <TextInput
          aria-label={`Datumformaat ${label}`}
          placeholder="bijv. DD-MM-YYYY"
          value={row.date}
          maxLength={100}
          onChange={(e) => set({ date: e.currentTarget.value })}
          disabled={!mapped}
          error={errors?.date}
        />
      </Table.Td>
      <Table.Td miw={140}>
        <TextInput
          aria-label={`Uitsluiten ${label}`}
          placeholder="waarde of /regex/i"
          value={row.exclude}
          maxLength={1000}
          onChange={(e) => set({ exclude: e.currentTarget.value })}
          disabled={!mapped}
          error={errors?.exclude}
        />
      </Table.Td>
      <Table.Td>
        {props.valuesHref && (
          <Anchor
            component={Link}
            to={props.valuesHref}
            aria-label={`Waarden van ${label}`}
            onClick={(event) => {
              // A plain click stays in the app through the editor; ctrl/cmd-click opens a tab.
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                return;
              event.preventDefault();
              if (props.valuesHref) props.onOpenValues(props.valuesHref);
            }}
          >
            Waarden{row.values.length > 0 ? ` (${row.values.length})` : ''}
          </Anchor>
        )}
      </Table.Td>
      <Table.Td>
        <Tooltip label="Mapping verwijderen">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Mapping verwijderen ${label}`}
            disabled={!mapped}
            onClick={() => props.onRemove(row.id)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
});

/** The table head of the extra rows. */
export function ExtraHead() {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>Kenmerk</Table.Th>
        <Table.Th>Vaste waarde</Table.Th>
        <Table.Th>Versleuteld</Table.Th>
        <Table.Th />
      </Table.Tr>
    </Table.Thead>
  );
}

/** One extra mapping: an attribute with a fixed value for every record. */
export const ExtraRowView = memo(function ExtraRowView(props: RowProps<ExtraRow>) {
  const { row, label, errors } = props;
  const set = (patch: Partial<ExtraRow>) => props.onChange(row.id, patch);
  return (
    <Table.Tr data-testid="extra-row" data-mapped={row.mapped}>
      <Table.Td miw={200}>
        <Autocomplete
          aria-label={`Kenmerk van ${label}`}
          placeholder="Kenmerk"
          data={props.suggestions}
          limit={100}
          maxLength={100}
          value={row.mapped}
          onChange={(value) => props.onMapped(row.id, value)}
          error={errors?.mapped}
        />
      </Table.Td>
      <Table.Td miw={200}>
        <TextInput
          aria-label={`Vaste waarde van ${label}`}
          value={row.value}
          maxLength={1000}
          onChange={(e) => set({ value: e.currentTarget.value })}
          error={errors?.value}
        />
      </Table.Td>
      <Table.Td>
        <Checkbox
          aria-label={`Versleuteld ${label}`}
          checked={row.encrypted}
          onChange={(e) => set({ encrypted: e.currentTarget.checked })}
        />
      </Table.Td>
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Verwijder ${label}`}
          onClick={() => props.onRemove(row.id)}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
});
