import { ActionIcon, Button, Group, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Campaign } from '../../../common/campaigns';
import { ALL_MAILINGS_LABEL } from '../../../common/mailings';
import { DateField } from '../../components/date-field';
import { formatDate } from '../../lib/dates';
import { builderMailingsKey, listMailings } from './api';
import { type BuilderSettings, editSelection } from './builder-store';

/** One entry of 'Gebruik bestanden van': a campaign and optionally one of its mailings. */
function DatasetsFromRow(props: {
  entry: { campaign: string; mailing?: string };
  campaigns: Campaign[];
  onChange: (entry: { campaign: string; mailing?: string }) => void;
  onRemove: () => void;
  disabled: boolean;
  index: number;
}) {
  const mailings = useQuery({
    queryKey: builderMailingsKey(props.entry.campaign),
    queryFn: () => listMailings(props.entry.campaign),
    enabled: props.entry.campaign !== '',
  });
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Select
        label={`Campagne ${props.index + 1}`}
        searchable
        data={props.campaigns.map((c) => ({ value: c._id, label: c.name }))}
        value={props.entry.campaign || null}
        onChange={(v) => props.onChange({ campaign: v ?? '' })}
        disabled={props.disabled}
        style={{ flex: 1 }}
      />
      <Select
        label={`Verzending ${props.index + 1}`}
        data={[
          { value: '', label: ALL_MAILINGS_LABEL },
          ...(mailings.data ?? []).map((m) => ({ value: m._id, label: m.name })),
        ]}
        value={props.entry.mailing ?? ''}
        onChange={(v) => props.onChange({ campaign: props.entry.campaign, ...(v ? { mailing: v } : {}) })}
        disabled={props.disabled || props.entry.campaign === ''}
        style={{ flex: 1 }}
      />
      <ActionIcon
        variant="subtle"
        color="red"
        mb={4}
        aria-label={`Verwijder campagne ${props.index + 1}`}
        onClick={props.onRemove}
        disabled={props.disabled}
      >
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}

/**
 * The selection's settings (spec 001 §2/§9): blacklist, active datasets only, the campaign's label,
 * the pressure date (default the Monday after the planned send) and the datasets of other campaigns.
 */
export function SelectionSettings(props: {
  settings: BuilderSettings;
  campaigns: Campaign[];
  /** The default pressure date (YYYY-MM-DD) of the chosen mailing, when known. */
  defaultPressureAge: string | null;
  disabled: boolean;
}) {
  const { settings, disabled } = props;
  const set = (change: Partial<BuilderSettings>) => editSelection({ settings: change });
  const from = settings.useDatasetsFrom;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <Switch
          label="Gebruik blacklist"
          checked={settings.useBlacklist}
          onChange={(e) => set({ useBlacklist: e.currentTarget.checked })}
          disabled={disabled}
        />
        <Switch
          label="Alleen actieve bestanden"
          checked={settings.activeDatasetsOnly}
          onChange={(e) => set({ activeDatasetsOnly: e.currentTarget.checked })}
          disabled={disabled}
        />
        <Switch
          label="Gebruik label van de campagne"
          checked={settings.useCampaignLabel}
          onChange={(e) => set({ useCampaignLabel: e.currentTarget.checked })}
          disabled={disabled}
        />
        <Switch
          label="Houd rekening met maildruk"
          checked={settings.useDate}
          onChange={(e) => set({ useDate: e.currentTarget.checked })}
          disabled={disabled}
        />
      </SimpleGrid>
      <DateField
        label="Maildrukdatum"
        description={
          props.defaultPressureAge
            ? `Standaard de maandag na de verzenddatum: ${formatDate(props.defaultPressureAge)}`
            : 'Standaard de maandag na de verzenddatum'
        }
        placeholder={props.defaultPressureAge ? formatDate(props.defaultPressureAge) : 'DD-MM-JJJJ'}
        clearable
        maw={320}
        value={settings.pressureAge}
        onChange={(v) => set({ pressureAge: v ? String(v).slice(0, 10) : null })}
        disabled={disabled || !settings.useDate}
      />
      <div>
        <Text size="sm" fw={500}>
          Gebruik bestanden van
        </Text>
        <Text size="xs" c="dimmed" mb={4}>
          Alleen de bestanden die in deze campagnes of verzendingen zijn gebruikt.
        </Text>
        <Stack gap={4}>
          {from.map((entry, i) => (
            <DatasetsFromRow
              // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; their place is their identity.
              key={i}
              index={i}
              entry={entry}
              campaigns={props.campaigns}
              disabled={disabled}
              onChange={(next) => set({ useDatasetsFrom: from.map((e, j) => (j === i ? next : e)) })}
              onRemove={() => set({ useDatasetsFrom: from.filter((_, j) => j !== i) })}
            />
          ))}
        </Stack>
        <Button
          mt={4}
          size="xs"
          variant="subtle"
          leftSection={<IconPlus size={14} />}
          onClick={() => set({ useDatasetsFrom: [...from, { campaign: '' }] })}
          disabled={disabled}
        >
          Campagne toevoegen
        </Button>
      </div>
    </Stack>
  );
}
