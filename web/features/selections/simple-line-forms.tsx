import { MultiSelect, SegmentedControl, Select, Stack, TagsInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EXTERNAL_TYPES } from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { interestTypesKey, labelsKey, listInterestTypes, listLabels } from './api';
import { type LineFormProps, LineFormShell } from './line-form-shell';
import { checkLine } from './line-rules';

/** spec 001 §8: the title of a failed interest type list. */
const INTERESTS_FAILED = 'Interesses konden niet worden opgehaald';

const firstEntry = (record: unknown): [string, unknown] | null => {
  if (typeof record !== 'object' || record === null) return null;
  return Object.entries(record)[0] ?? null;
};

/** 'Label': the addresses of datasets with a label (spec 001 §5: a label is needed). */
export function LabelLineForm(props: LineFormProps) {
  const current = props.current && 'dataset' in props.current ? props.current.dataset : null;
  const [label, setLabel] = useState<string | null>(current && 'type' in current ? current.type : null);
  const labels = useQuery({ queryKey: labelsKey, queryFn: listLabels });
  useFailedQueryAlert(labels.error, SelectionMessages.fetchTypesFailed);
  return (
    <LineFormShell {...props} build={() => checkLine({ dataset: { type: label ?? '' } })}>
      <Select
        label="Label"
        placeholder="Kies een label"
        searchable
        data={labels.data ?? []}
        value={label}
        onChange={setLabel}
      />
    </LineFormShell>
  );
}

/** 'Interesse type': addresses with a click or open interest (spec 001 §5: at least one interest). */
export function InterestLineForm(props: LineFormProps) {
  const entry = firstEntry(props.current && 'interests' in props.current ? props.current.interests : null);
  const [kind, setKind] = useState(entry?.[0] ?? 'click');
  const [chosen, setChosen] = useState<string[]>((entry?.[1] as string[] | undefined) ?? []);
  const types = useQuery({ queryKey: interestTypesKey, queryFn: listInterestTypes });
  useFailedQueryAlert(types.error, INTERESTS_FAILED);
  return (
    <LineFormShell {...props} build={() => checkLine({ interests: { [kind]: chosen } })}>
      <Stack>
        <SegmentedControl
          aria-label="Soort interesse"
          value={kind}
          onChange={setKind}
          data={[
            { value: 'click', label: 'Klikinteresse' },
            { value: 'open', label: 'Openinteresse' },
          ]}
        />
        <MultiSelect
          label="Interesses"
          placeholder="Kies een of meer interesses"
          searchable
          data={[...new Set([...(types.data ?? []), ...chosen])]}
          value={chosen}
          onChange={setChosen}
        />
      </Stack>
    </LineFormShell>
  );
}

const EXTERNAL_LABELS: Record<(typeof EXTERNAL_TYPES)[number], string> = {
  os: 'Besturingssysteem',
  id: 'E-mailadres',
  domain: 'Domein',
};

/** 'Externe kenmerken': os, id or domain values (spec 001 §5: at least one non-blank value). */
export function ContainsLineForm(props: LineFormProps) {
  const entry = firstEntry(props.current && 'contains' in props.current ? props.current.contains : null);
  const [type, setType] = useState<string | null>(entry?.[0] ?? 'domain');
  const [values, setValues] = useState<string[]>((entry?.[1] as string[] | undefined) ?? []);
  return (
    <LineFormShell {...props} build={() => checkLine({ contains: { [type ?? '']: values } })}>
      <Stack>
        <Select
          label="Type"
          allowDeselect={false}
          data={EXTERNAL_TYPES.map((value) => ({ value, label: EXTERNAL_LABELS[value] }))}
          value={type}
          onChange={setType}
        />
        <TagsInput
          label="Waarden"
          description="Enter na elke waarde"
          value={values}
          onChange={setValues}
          splitChars={[',', ';', ' ']}
          acceptValueOnBlur
        />
      </Stack>
    </LineFormShell>
  );
}
