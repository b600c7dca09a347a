import { Autocomplete, Group, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { dateBoundInWords, dateBoundOfWords } from '../../../common/date-words';
import {
  type AttributeOption,
  attributeOfText,
  attributeOptions,
  attributeText,
  matchesAttribute,
} from '../../../common/global-attributes';
import { splitPastedValues } from '../../../common/query-operators';
import {
  ATTRIBUTE_OPERATORS,
  MORE_ATTRIBUTE_OPERATORS,
  QueryMessages,
  type QueryNode,
} from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { attributesKey, listAttributes, listValueSuggestions, valueSuggestionsKey } from './api';
import { type LineFormProps, LineFormShell } from './line-form-shell';
import { attributeLine } from './line-rules';

// spec 001 §9: value suggestions are requested 500 ms after the attribute or operator changes.
const AUTOCOMPLETE_DELAY_MS = 500;

/** The operators of the form, by their Dutch name ('notEmpty' is the line `empty: false`). */
const OPERATOR_LABELS: Record<string, string> = {
  match: 'is',
  in: 'is een van',
  range: 'tussen',
  dateRange: 'datum tussen',
  age: 'leeftijd (jaren)',
  empty: 'is leeg',
  notEmpty: 'is niet leeg',
  startsWith: 'begint met',
  includes: 'bevat',
};
const TEXT_OPERATORS = ['match', 'startsWith', 'includes'];
const PAIR_OPERATORS = ['range', 'dateRange', 'age'];
// Messages about the attribute or the operator; the others belong beside the value fields.
const HEAD_MESSAGES: string[] = [QueryMessages.attributeRequired, QueryMessages.operatorRequired];

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
  for (const op of [...ATTRIBUTE_OPERATORS, ...MORE_ATTRIBUTE_OPERATORS]) {
    if (!(op in node)) continue;
    const [attribute, value] = Object.entries((node as Record<string, Record<string, unknown>>)[op])[0];
    fields.attribute = attribute;
    fields.operator = op === 'empty' && value === false ? 'notEmpty' : op;
    if (TEXT_OPERATORS.includes(op)) fields.match = String(value);
    else if (op === 'in') fields.values = (value as unknown[]).map(String);
    else if (op === 'dateRange')
      [fields.from, fields.to] = (value as unknown[]).map(String).map(dateBoundInWords);
    else if (PAIR_OPERATORS.includes(op)) [fields.from, fields.to] = (value as unknown[]).map(String);
  }
  return fields;
}

/**
 * 'Selecteren op kenmerken': attribute, operator (is, is een van, tussen, datum tussen, leeftijd,
 * is (niet) leeg, begint met, bevat) and the value(s); the rules' messages show beside the fields.
 */
export function AttributeLineForm(props: LineFormProps) {
  const [fields, setFields] = useState(() => fieldsOf(props.current));
  const set = (change: Partial<typeof fields>) => setFields((f) => ({ ...f, ...change }));
  const attributes = useQuery({ queryKey: attributesKey, queryFn: listAttributes });
  useFailedQueryAlert(attributes.error, SelectionMessages.fetchAttributesFailed);
  // The picker shows the attributes' Dutch labels; the line keeps the attribute's name. Until the
  // field is typed in, the line's own attribute stays (whatever the list has loaded by then).
  const options = attributeOptions(attributes.data ?? []);
  const [typedAttribute, setTypedAttribute] = useState<string | null>(null);
  const attribute = typedAttribute === null ? fields.attribute : attributeOfText(typedAttribute, options);
  const [watched] = useDebouncedValue(
    `${fields.operator ?? ''}\u0000${attribute.trim()}`,
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
  const [messages, setMessages] = useState<string[]>([]);
  const build = () => {
    // A date line's relative dates typed in words ('30 dagen geleden') become the engine's bounds.
    const isDate = fields.operator === 'dateRange';
    const built = attributeLine(attribute, fields.operator, {
      ...fields,
      from: isDate ? dateBoundOfWords(fields.from) : fields.from,
      to: isDate ? dateBoundOfWords(fields.to) : fields.to,
    });
    setMessages('errors' in built ? built.errors : []);
    return built;
  };
  const headError = (message: string) => (messages.includes(message) ? message : undefined);
  const valueMessages = messages.filter((m) => !HEAD_MESSAGES.includes(m));
  const valueError = valueMessages.length > 0 ? valueMessages.join(' ') : undefined;
  const op = fields.operator ?? '';

  return (
    <LineFormShell {...props} build={build}>
      <Stack>
        <Group grow align="flex-start">
          <Autocomplete
            label="Kenmerk"
            placeholder="Kies een kenmerk"
            data={options}
            filter={({ options: shown, search, limit }) =>
              (shown as AttributeOption[]).filter((o) => matchesAttribute(o, search)).slice(0, limit)
            }
            limit={50}
            value={typedAttribute ?? (fields.attribute ? attributeText(fields.attribute, options) : '')}
            onChange={setTypedAttribute}
            error={headError(QueryMessages.attributeRequired)}
          />
          <Select
            label="Operator"
            placeholder="Kies een operator"
            data={Object.entries(OPERATOR_LABELS).map(([value, label]) => ({ value, label }))}
            value={fields.operator}
            onChange={(operator) => set({ operator })}
            error={headError(QueryMessages.operatorRequired)}
          />
        </Group>
        {TEXT_OPERATORS.includes(op) && (
          <Autocomplete
            label="Waarde"
            error={valueError}
            data={op === 'match' ? values : []}
            limit={50}
            value={fields.match}
            onChange={(match) => set({ match })}
          />
        )}
        {fields.operator === 'in' && (
          <TagsInput
            label="Waarden"
            description="Enter na elke waarde, of plak een lijst: één per regel of gescheiden door komma's of puntkomma's"
            error={valueError}
            data={values}
            limit={50}
            value={fields.values}
            onChange={(v) => set({ values: v })}
            // A pasted list is read by splitPastedValues before the field's own split on commas.
            onPasteCapture={(e) => {
              const pasted = splitPastedValues(e.clipboardData.getData('text/plain'));
              if (pasted.length < 2) return;
              e.preventDefault();
              e.stopPropagation();
              const known = new Set(fields.values.map((v) => v.toLowerCase()));
              set({ values: [...fields.values, ...pasted.filter((v) => !known.has(v.toLowerCase()))] });
            }}
            splitChars={[',', ';']}
            acceptValueOnBlur
          />
        )}
        {PAIR_OPERATORS.includes(op) && (
          <Group grow align="flex-start">
            <TextInput
              label="Van"
              placeholder={
                op === 'dateRange' ? 'DD-MM-JJJJ of 1 jaar geleden' : op === 'age' ? 'jaren' : undefined
              }
              description={
                op === 'dateRange'
                  ? "Een datum, 'vandaag', '30 dagen geleden' of 'over 2 maanden'"
                  : undefined
              }
              value={fields.from}
              onChange={(e) => set({ from: e.currentTarget.value })}
              error={valueError}
            />
            <TextInput
              label={op === 'age' ? 't/m' : 'Tot'}
              placeholder={op === 'dateRange' ? 'DD-MM-JJJJ of vandaag' : op === 'age' ? 'jaren' : undefined}
              value={fields.to}
              onChange={(e) => set({ to: e.currentTarget.value })}
            />
          </Group>
        )}
      </Stack>
    </LineFormShell>
  );
}
