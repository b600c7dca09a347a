import { Select, type SelectProps } from '@mantine/core';
import { EXTERNAL_PARTIES, EXTERNAL_PARTY_LABELS } from '../../../common/campaigns';

const OPTIONS = EXTERNAL_PARTIES.map((value) => ({ value, label: EXTERNAL_PARTY_LABELS[value] }));

/** The 'Verzendpartij' choice of the campaign and mailing forms: every mailing provider, never empty. */
export function ExternalPartySelect(props: Omit<SelectProps, 'data' | 'label'>) {
  return <Select label="Verzendpartij" data={OPTIONS} allowDeselect={false} maw={320} {...props} />;
}
