import { Autocomplete, Group, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ATTRIBUTE_OPERATORS, type QueryNode } from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { attributesKey, listAttributes, listValueSuggestions, valueSuggestionsKey } from './api';
import { type LineFormProps, LineFormShell } from './line-form-shell';
import { attributeLine } from './line-rules';

// spec 001 §9: value suggestions are requested 500 ms after the attribute or operator changes.
const AUTOCOMPLETE_DELAY_MS = 500;

const OPERATOR_LABELS: Record<(typeof ATTRIBUTE_OPERATORS)[number], string> = {
  match: 'Is gelijk aan (match, * als joker)',
  in: 'Is een van (in)',
  range: 'Tussen (range)',
  dateRange: 'Tussen datums (dateRange)',
};

/** The form's fields of an existing attribute line. */
function fieldsOf(node: QueryNode | null) {
  const fields = {
    attribute: '',
    operator: null as string | null,
    match: '',
    values: [] as string[],
    from: '',
    to: '',
  };
  if (!node) return fields;
  for (const op of ATTRIBUTE_OPERATORS) {
    if (!(op in node)) continue;
    const [attribute, value] = Object.entries((node as Record<string, Record<string, unknown>>)[op])[0];
    fields.attribute = attribute;
    fields.operator = op;
    if (op === 'match') fields.match = String(value);
    else if (op === 'in') fields.values = (value as unknown[]).map(String);
    else [fields.from, fields.to] = (value as unknown[]).map(String);
  }
  return fields;
}

/** 'Selecteren op kenmerken': attribute, operator (match, in, range, dateRange) and the value(s). */
export function AttributeLineForm(props: LineFormProps) {
  const [fields, setFields] = useState(() => fieldsOf(props.current));
  const set = (change: Partial<typeof fields>) => setFields((f) => ({ ...f, ...change }));
  const attributes = useQuery({ queryKey: attributesKey, queryFn: listAttributes });
  useFailedQueryAlert(attributes.error, SelectionMessages.fetchAttributesFailed);
  const [watched] = useDebouncedValue(
    `${fields.operator ?? ''}\u0000${fields.attribute.trim()}`,
    AUTOCOMPLETE_DELAY_MS,
  );
  const [watchedOperator, watchedAttribute] = watched.split('\u0000');
  // Suggestion failures are ignored (spec 001 §8): the field still takes any typed value.
  const suggestions = useQuery({
    queryKey: valueSuggestionsKey(watchedAttribute),
    queryFn: () => listValueSuggestions(watchedAttribute),
    enabled: watchedAttribute !== '' && (watchedOperator === 'match' || watchedOperator === 'in'),
    retry: false,
  });
  const values = suggestions.data ?? [];

  return (
    <LineFormShell {...props} build={() => attributeLine(fields.attribute, fields.operator, fields)}>
      <Stack>
        <Group grow align="flex-start">
          <Autocomplete
            label="Kenmerk"
            placeholder="Kies een kenmerk"
            data={attributes.data ?? []}
            limit={50}
            value={fields.attribute}
            onChange={(attribute) => set({ attribute })}
          />
          <Select
            label="Operator"
            placeholder="Kies een operator"
            data={ATTRIBUTE_OPERATORS.map((value) => ({ value, label: OPERATOR_LABELS[value] }))}
            value={fields.operator}
            onChange={(operator) => set({ operator })}
          />
        </Group>
        {fields.operator === 'match' && (
          <Autocomplete
            label="Waarde"
            data={values}
            limit={50}
            value={fields.match}
            onChange={(match) => set({ match })}
          />
        )}
        {fields.operator === 'in' && (
          <TagsInput
            label="Waarden"
            description="Enter na elke waarde"
            data={values}
            limit={50}
            value={fields.values}
            onChange={(v) => set({ values: v })}
            splitChars={[',', ';']}
            acceptValueOnBlur
          />
        )}
        {(fields.operator === 'range' || fields.operator === 'dateRange') && (
          <Group grow>
            <TextInput
              label="Van"
              placeholder={fields.operator === 'dateRange' ? 'DD-MM-JJJJ of NOW-1YEAR' : undefined}
              value={fields.from}
              onChange={(e) => set({ from: e.currentTarget.value })}
            />
            <TextInput
              label="Tot"
              placeholder={fields.operator === 'dateRange' ? 'DD-MM-JJJJ of NOW' : undefined}
              value={fields.to}
              onChange={(e) => set({ to: e.currentTarget.value })}
            />
          </Group>
        )}
      </Stack>
    </LineFormShell>
  );
}
